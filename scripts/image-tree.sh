#!/usr/bin/env bash
# Assembles the container image's runtime file tree without a Docker engine, by carrying out the Dockerfile
# itself: the build stage's RUN lines in a copy of the build context (the committed sources less .dockerignore),
# then the runtime stage's COPY --from=build and RUN lines into the tree. The Dockerfile is the only list of what
# the image holds: an instruction this script does not know stops it, so the two cannot drift apart.
# Prints the tree's size, which is what the Dockerfile adds on top of the Node image.
# Usage: scripts/image-tree.sh <empty-or-new-folder>   (NODE_BIN=/path/to/node22/bin to build with another Node;
#        DOCKERFILE=<file> to carry out another Dockerfile than the repository's, as the smoke test's own check does)
set -euo pipefail
dest="$(realpath -m "${1:?Usage: scripts/image-tree.sh <folder>}")"
repo="$(cd "$(dirname "$0")/.." && pwd)"
dockerfile="$(realpath "${DOCKERFILE:-$repo/Dockerfile}")"
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then echo "$dest is not empty" >&2; exit 1; fi
if [ -n "${NODE_BIN:-}" ]; then export PATH="$NODE_BIN:$PATH"; fi
fail() { echo "scripts/image-tree.sh: $*" >&2; exit 1; }
echo "Node $(node --version), npm $(npm --version); carrying out $dockerfile"

stage_dir="$dest/build-stage"
app="$dest/app"
workdir=/app
mkdir -p "$stage_dir" "$app"
# The build context: what `docker build .` sends, the committed sources less what .dockerignore leaves out.
git -C "$repo" archive HEAD | tar -x -C "$stage_dir"
(cd "$stage_dir" && grep -v '^\s*#' "$repo/.dockerignore" | sed '/^\s*$/d' | while read -r ignored; do rm -rf "./$ignored"; done)

# A path in a stage (absolute, or relative to WORKDIR) as a path in the folder standing for that stage.
in_stage() {
  local folder="$1" path="$2"
  case "$path" in /*) ;; *) path="$workdir/$path" ;; esac
  case "$path/" in "$workdir"/*) echo "$folder${path#"$workdir"}" ;; *) fail "$path is outside $workdir" ;; esac
}

# COPY --from=build <source>… <destination>, with Docker's rules: a folder's contents are copied into the
# destination; several sources, or a destination ending in /, go into a folder.
copy_from_build() {
  local args=("$@") target sources count
  target="${args[-1]}"
  sources=("${args[@]:0:${#args[@]}-1}")
  count=${#sources[@]}
  local into; into="$(in_stage "$app" "$target")"
  for source in "${sources[@]}"; do
    local from; from="$(in_stage "$stage_dir" "$source")"
    [ -e "$from" ] || fail "COPY --from=build $source: not in the build stage"
    if [ -d "$from" ]; then
      mkdir -p "$into" && cp -a "$from/." "$into/"
    elif [ "$count" -gt 1 ] || [[ "$target" == */ ]]; then
      mkdir -p "$into" && cp -a "$from" "$into/"
    else
      mkdir -p "$(dirname "$into")" && cp -a "$from" "$into"
    fi
  done
}

# A RUN line of the runtime stage: only making folders is known (ownership is not part of the tree).
run_in_runtime() {
  local part words
  while read -r part; do
    read -r -a words <<<"$part"
    if [ "${words[0]:-}" = mkdir ] && [ "${words[1]:-}" = -p ]; then
      for folder in "${words[@]:2}"; do mkdir -p "$(in_stage "$app" "$folder")"; done
    elif [ "${words[0]:-}" = chown ]; then
      :
    else
      fail "the runtime stage runs \"$part\": teach this script what it does to the tree"
    fi
  done < <(sed 's/&&/\n/g' <<<"$1")
}

stage=""
# The instructions (comment lines dropped, continued lines joined), on descriptor 3: the commands run keep stdin.
while read -r keyword rest <&3; do
  case "$keyword" in
    FROM)
      stage="$(sed -n 's/.*[[:space:]][Aa][Ss][[:space:]]\+\([^[:space:]]\+\)$/\1/p' <<<"$rest")"
      [ "$stage" = base ] || [[ "$rest" == base\ * ]] || fail "FROM $rest: only the base image and stages made from it are known" ;;
    WORKDIR)
      [ "$rest" = "$workdir" ] || fail "WORKDIR $rest: the script knows $workdir" ;;
    COPY)
      if [ "$stage" = build ]; then
        # From the build context, into WORKDIR: the context is in the stage's folder already, whole.
        [[ "$rest" != --* ]] || fail "COPY $rest: the build stage copies only from the build context"
      elif [ "$stage" = runtime ]; then
        [[ "$rest" == --from=build\ * ]] || fail "COPY $rest: the runtime stage copies only from the build stage"
        read -r -a words <<<"${rest#--from=build }"
        echo "COPY --from=build ${words[*]}"
        copy_from_build "${words[@]}"
      else
        fail "COPY in stage \"$stage\""
      fi ;;
    RUN)
      if [ "$stage" = build ]; then
        if [[ "$rest" == apt-get\ update* ]]; then
          echo "RUN $rest: skipped (the system's build tools; this machine has its own)"
        else
          echo "RUN $rest"
          (cd "$stage_dir" && bash -euo pipefail -c "$rest")
        fi
      elif [ "$stage" = runtime ]; then
        echo "RUN $rest"
        run_in_runtime "$rest"
      else
        fail "RUN in stage \"$stage\""
      fi ;;
    ENV | USER | VOLUME | EXPOSE | HEALTHCHECK | CMD | ENTRYPOINT | LABEL | ARG | STOPSIGNAL) ;; # no files
    *) fail "unknown instruction: $keyword $rest" ;;
  esac
done 3< <(sed -e '/^[[:space:]]*#/d' "$dockerfile" | awk '{ if (sub(/\\$/, "")) { line = line $0 } else { print line $0; line = "" } }' | sed '/^[[:space:]]*$/d')
[ "$stage" = runtime ] || fail "the Dockerfile's last stage is \"$stage\", not runtime"
rm -rf "$stage_dir"

echo "Runtime tree in $app:"
# One du per folder: given a folder and one inside it at once, du counts the inner one only once, under the first.
for part in "" node_modules build db/seed app/documents/fonts; do [ ! -e "$app/$part" ] || du -sh "$app/$part"; done
