import type { InterviewStatus } from "../../db/schema";

export const PAGE_SIZES = [5, 10, 25] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** ?page=N&size=5|10|25 from a list URL; anything else falls back to page 1 of 5. */
export function parseListQuery(url: URL): { page: number; pageSize: PageSize } {
  const page = Number(url.searchParams.get("page"));
  const size = PAGE_SIZES.find((value) => String(value) === url.searchParams.get("size")) ?? 5;
  return { page: Number.isSafeInteger(page) && page >= 1 ? page : 1, pageSize: size };
}

export interface InterviewListItem {
  id: string;
  issueId: number;
  issueName: string;
  status: InterviewStatus;
  updatedAt: string;
}

export interface InterviewPage {
  items: InterviewListItem[];
  total: number;
  page: number;
  pageSize: PageSize;
  pageCount: number;
}
