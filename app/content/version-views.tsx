import type { ReactNode } from "react";
import type { ContentVersionSource, ContentVersionStatus } from "../../db/schema";
import { AdminTime } from "~/ui/admin-lists";

export function VersionTime({ at }: { at: string }) {
  return <AdminTime at={at} zone />;
}

/**
 * "A draft newer than the published … exists": above a form (or list) that shows the draft, what the public
 * pages show meanwhile. `what`: "content", "translation", "corrections"; `shown`: what holds the draft.
 */
export function PendingDraftNotice({
  draft,
  what,
  shown = "form",
  children,
}: {
  draft: { version: number; author: string; createdAt: string };
  what: string;
  shown?: string;
  children?: ReactNode;
}) {
  return (
    <div className="notice notice--warning" role="note">
      <p>
        A draft newer than the published {what} exists: version {draft.version}, saved by {draft.author} on <VersionTime at={draft.createdAt} />. The {shown}{" "}
        shows the draft; the public pages show the published {what === "corrections" ? what : "version"} until you publish.
      </p>
      {children}
    </div>
  );
}

export const statusNames: Record<ContentVersionStatus, string> = { draft: "Draft", published: "Published", deleted: "Deleted" };

/** Who made a version, in words: an administrator's email, or where it came from. */
export function authorName(version: { source: ContentVersionSource; authorEmail: string }): string {
  if (version.source === "seed") return "The seed files";
  if (version.source === "command line") return "The command line";
  return version.authorEmail;
}

export interface DiffLineView {
  change: "added" | "removed" | "same";
  text: string;
}

const changeWords = { added: "Added", removed: "Removed", same: "Unchanged" } as const;
const changeSigns = { added: "+", removed: "−", same: "" } as const;

/**
 * A line diff as a table: each line says in words whether it was added, removed or kept (a sign and the
 * <ins>/<del> elements say it too), so the change never rests on colour alone.
 */
export function DiffTable({ lines, caption }: { lines: DiffLineView[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data-table diff-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Change</th>
            <th scope="col">Line</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={index} className={`diff-table__row diff-table__row--${line.change}`}>
              <td className="diff-table__change">
                <span aria-hidden="true" className="diff-table__sign">
                  {changeSigns[line.change]}
                </span>{" "}
                {changeWords[line.change]}
              </td>
              <td className="diff-table__text">
                {line.change === "added" ? <ins>{line.text || " "}</ins> : line.change === "removed" ? <del>{line.text || " "}</del> : line.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
