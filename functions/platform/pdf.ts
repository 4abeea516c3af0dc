/**
 * PDF uploads are checked by what they are: the bytes must load as a PDF document with at least one
 * page, not merely begin with '%PDF-'. Kept apart from uploads.ts so that pdf-lib is bundled only
 * into the functions that receive PDFs.
 */
/**
 * True when the bytes load as a PDF document with at least one page. pdf-lib is imported on first
 * use, so that a cold start does not evaluate it. The bytes are stored as they came (re-saving
 * would break a digital signature): the check is that they parse.
 */
export async function isPdfDocument(bytes: Buffer): Promise<boolean> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return false;
  try {
    const { PDFDocument } = await import('pdf-lib');
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
    return document.getPageCount() > 0;
  } catch {
    return false;
  }
}
