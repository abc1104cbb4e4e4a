/**
 * Merging PDFs with their structure trees (tagged PDF). pdf-lib's `copyPages` copies pages only: the tags of a
 * text template, or of a template PDF or attachment that has them, would be lost in the merged document. Here
 * each part's pages are copied with one copier that also copies the part's structure elements, so their page
 * references point at the copied pages; the parts' parent trees are renumbered into one (each page's
 * `StructParents` and each annotation's `StructParent` move by the keys of the parts before it), and the parts'
 * top-level elements become the children of one structure tree root, in the order of the parts.
 */
import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFNumber, type PDFObject, PDFObjectCopier, PDFPage, PDFRef } from "@cantoo/pdf-lib";

export interface StructureMerge {
  root: PDFRef | null;
  kids: PDFObject[];
  nums: [number, PDFObject][];
  next: number;
  roleMap: Map<string, PDFObject>;
}

export function structureMerge(): StructureMerge {
  return { root: null, kids: [], nums: [], next: 0, roleMap: new Map() };
}

const N = (name: string) => PDFName.of(name);

/** Every entry of a number tree (`Nums`, and `Kids` below it). */
function numberTree(dict: PDFDict | undefined, out: [number, PDFObject][] = [], depth = 0): [number, PDFObject][] {
  if (!dict || depth > 32) return out;
  const nums = dict.lookupMaybe(N("Nums"), PDFArray);
  if (nums) {
    for (let i = 0; i + 1 < nums.size(); i += 2) {
      const key = nums.lookup(i);
      if (key instanceof PDFNumber) out.push([key.asNumber(), nums.get(i + 1)]);
    }
  }
  const kids = dict.lookupMaybe(N("Kids"), PDFArray);
  if (kids) for (let i = 0; i < kids.size(); i++) numberTree(kids.lookupMaybe(i, PDFDict), out, depth + 1);
  return out;
}

function shiftKey(dict: PDFDict, key: string, by: number) {
  const value = dict.lookup(N(key));
  if (value instanceof PDFNumber) dict.set(N(key), PDFNumber.of(value.asNumber() + by));
}

/** Appends every page of `src` to `out`, with `src`'s structure tree when it has one. */
export function appendWithStructure(out: PDFDocument, src: PDFDocument, merge: StructureMerge) {
  const copier = PDFObjectCopier.for(src.context, out.context);
  // The copier maps references it has met; pages and the old root are mapped before anything refers to them.
  const traversed = (copier as unknown as { traversedObjects: Map<PDFObject, PDFObject> }).traversedObjects;
  const found = src.catalog.lookup(N("StructTreeRoot"));
  const tree = found instanceof PDFDict ? found : undefined;
  const treeRef = src.catalog.get(N("StructTreeRoot"));
  const offset = merge.next;
  if (tree) {
    merge.root ??= out.context.nextRef();
    if (treeRef instanceof PDFRef) traversed.set(treeRef, merge.root);
  }
  const pages = src.getPages();
  const refs = pages.map((page) => {
    const ref = out.context.nextRef();
    traversed.set(page.ref, ref);
    return ref;
  });
  pages.forEach((page, i) => {
    const copied = copier.copy(page.node) as typeof page.node;
    out.context.assign(refs[i]!, copied);
    if (tree) {
      shiftKey(copied, "StructParents", offset);
      const annots = copied.lookup(N("Annots"));
      for (let k = 0; annots instanceof PDFArray && k < annots.size(); k++) {
        const annot = annots.lookup(k);
        if (annot instanceof PDFDict) shiftKey(annot, "StructParent", offset);
      }
    } else copied.delete(N("StructParents"));
    out.addPage(PDFPage.of(copied, refs[i]!, out));
  });
  if (!tree) return;
  const before = { kids: merge.kids.length, nums: merge.nums.length, next: merge.next, roles: new Set(merge.roleMap.keys()) };
  try {
    copyTree(tree, copier, offset, merge);
  } catch {
    // A structure tree that cannot be followed costs the part its tags, never its pages.
    merge.kids.length = before.kids;
    merge.nums.length = before.nums;
    merge.next = before.next;
    for (const key of [...merge.roleMap.keys()]) if (!before.roles.has(key)) merge.roleMap.delete(key);
    for (const ref of refs) out.context.lookupMaybe(ref, PDFDict)?.delete(N("StructParents"));
  }
}

function copyTree(tree: PDFDict, copier: PDFObjectCopier, offset: number, merge: StructureMerge) {
  const kids = tree.get(N("K"));
  const list = kids instanceof PDFArray ? kids.asArray() : kids ? [kids] : [];
  for (const kid of list) merge.kids.push(copier.copy(kid));
  let last = -1;
  for (const [key, value] of numberTree(tree.lookupMaybe(N("ParentTree"), PDFDict))) {
    merge.nums.push([key + offset, copier.copy(value)]);
    last = Math.max(last, key);
  }
  const nextKey = tree.lookup(N("ParentTreeNextKey"));
  merge.next = offset + Math.max(last + 1, nextKey instanceof PDFNumber ? nextKey.asNumber() : 0);
  const roles = tree.lookupMaybe(N("RoleMap"), PDFDict);
  if (roles) for (const [key, value] of roles.entries()) if (!merge.roleMap.has(key.asString())) merge.roleMap.set(key.asString(), copier.copy(value));
}

/** Writes the merged structure tree root into `out` (nothing when no part was tagged). */
export function finishStructure(out: PDFDocument, merge: StructureMerge) {
  if (!merge.root || !merge.kids.length) return;
  const context = out.context;
  const nums = context.obj([]);
  for (const [key, value] of merge.nums.sort((a, b) => a[0] - b[0])) {
    nums.push(PDFNumber.of(key));
    nums.push(value);
  }
  const root = context.obj({ Type: "StructTreeRoot" });
  let kids = merge.kids;
  if (kids.length > 1) {
    // One document element under the root (PDF/UA); each part's own Document becomes a Part of it.
    const wrapper = context.nextRef();
    for (const kid of kids) {
      const el = kid instanceof PDFRef ? context.lookupMaybe(kid, PDFDict) : kid instanceof PDFDict ? kid : undefined;
      if (!el) continue;
      if (el.lookup(N("S")) === N("Document")) el.set(N("S"), N("Part"));
      el.set(N("P"), wrapper);
    }
    context.assign(wrapper, context.obj({ Type: "StructElem", S: "Document", P: merge.root, K: kids }));
    kids = [wrapper];
  }
  root.set(N("K"), context.obj(kids));
  root.set(N("ParentTree"), context.register(context.obj({ Nums: nums })));
  root.set(N("ParentTreeNextKey"), PDFNumber.of(merge.next));
  if (merge.roleMap.size) {
    const roles = context.obj({});
    for (const [key, value] of merge.roleMap) roles.set(PDFName.of(key.replace(/^\//, "")), value);
    root.set(N("RoleMap"), roles);
  }
  context.assign(merge.root, root);
  out.catalog.set(N("StructTreeRoot"), merge.root);
  out.catalog.set(N("MarkInfo"), context.obj({ Marked: true }));
}
