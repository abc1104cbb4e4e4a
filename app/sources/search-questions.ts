/**
 * Questions people ask, in their own words, about the seed's sources (db/seed/sources), each with the section
 * (passage heading) that answers it. Measures the search (search-quality.server.test.ts, numbers in
 * docs/decisions/0031-sources-and-search.md); some use words the source does not ("fired" for "dismissal"), which
 * keyword search cannot bridge and an embeddings ranking would be measured on.
 */
export interface SearchQuestion {
  countryId: number;
  issueId: number;
  question: string;
  /** The heading of the passage that answers it. */
  answer: string;
  /** The question's key words are not the source's ("proof" for "evidence", "fired" for "dismissal"). */
  paraphrase?: boolean;
}

export const searchQuestions: SearchQuestion[] = [
  { countryId: 3, issueId: 6, question: "Can the landlord keep my bond because the carpet is worn?", answer: "What the landlord can claim" },
  { countryId: 3, issueId: 6, question: "Who holds my bond money during the lease?", answer: "What a bond is" },
  { countryId: 3, issueId: 6, question: "The landlord wants to take part of the bond and I disagree. What can I do?", answer: "If you do not agree" },
  { countryId: 3, issueId: 6, question: "What proof should I keep to get my deposit back?", answer: "Evidence that helps", paraphrase: true },
  { countryId: 3, issueId: 6, question: "How long does it take to get the bond paid out if we both agree?", answer: "At the end of the tenancy" },
  { countryId: 3, issueId: 6, question: "Can they charge me for cleaning after I moved out?", answer: "What the landlord can claim" },
  { countryId: 3, issueId: 10, question: "How many days do I have to apply after my dismissal?", answer: "The 21-day time limit" },
  { countryId: 3, issueId: 10, question: "I was fired last week without a warning. Is that allowed?", answer: "What unfair dismissal means", paraphrase: true },
  { countryId: 3, issueId: 10, question: "I only worked there for 4 months at a small business. Can I still make a claim?", answer: "Who can apply" },
  { countryId: 3, issueId: 10, question: "Could I get my job back?", answer: "What can happen" },
  { countryId: 1, issueId: 5, question: "My boss has not paid my salary. Where do I go for mediation?", answer: "Mediation at TADM" },
  { countryId: 1, issueId: 5, question: "When must my employer pay my overtime?", answer: "When salary must be paid" },
  { countryId: 1, issueId: 5, question: "What is the most money the tribunal can award for a salary claim?", answer: "The Employment Claims Tribunals" },
  { countryId: 1, issueId: 5, question: "I left the company 5 months ago. Is it too late to claim?", answer: "Time limits" },
  { countryId: 1, issueId: 5, question: "My wages are late, what should I do first?", answer: "Talk to your employer first", paraphrase: true },
];
