/** The file's text, as UTF-8 (FileReader: every browser, and the tests' jsdom, read a File with it). */
export function textoDe(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('leitura do arquivo'));
    reader.readAsText(file, 'utf-8');
  });
}
