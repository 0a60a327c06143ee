/**
 * The provider's source documents, as partners know them: by title, never by the file names the
 * maintainers keep them under. Declarations cite `<file>:<line>` (or `<file> line <n>`) for
 * maintainers; what a partner reads (the control API's description of a sandbox, the callback
 * confirmations) goes through `cite`, which names the document by its title.
 */
const TITLES: Readonly<Record<string, string>> = {
  "000_daece66fccfd0511.txt": "Pay Service Interface",
  "001_c84e9472cb6d908e.txt": "Payment Initiation, Statement Retrieval and Balance Retrieval Interface",
  "002_4706a6432e78318c.txt": "Disbursement and Account Opening Interface",
};

const FILE = /\b(\d{3}_[0-9a-f]{16}\.txt)(?::(\d+)| line (\d+))?/g;

/** `text` with every source file name replaced by its document's title (`<title>, line <n>`). */
export function cite(text: string): string;
export function cite(text: string | undefined): string | undefined;
export function cite(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.replace(FILE, (whole, file: string, colon?: string, spaced?: string) => {
    const title = TITLES[file];
    if (!title) return whole;
    const line = colon ?? spaced;
    return line ? `${title}, line ${line}` : title;
  });
}
