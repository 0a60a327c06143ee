/**
 * The provider's source documents, by the titles partners know them by. A declaration's `source`
 * cites one of them and a line: `Pay Service Interface, line 76`.
 */
export const SOURCE_TITLES = [
  "Pay Service Interface",
  "Payment Initiation, Statement Retrieval and Balance Retrieval Interface",
  "Disbursement and Account Opening Interface",
] as const;

/** A declaration's `source`: a document's title, then `, line <n>` (or a range `<n>-<m>`). */
export const SOURCE_PATTERN = `^(${SOURCE_TITLES.join("|")}), line \\d+(-\\d+)?$`;
