import { s3Client } from './aws';
import { GetObjectCommand, PutObjectCommand, S3Client } from './aws-direto/s3';
import { config } from './env';

/**
 * Files move between browsers and the documents bucket through short-lived presigned URLs, never
 * through the Lambda: the API hands out a URL bound to one key, one content type and a short life.
 * Checking what was uploaded (size, magic bytes) is the job of the feature that accepts the file.
 */
const UPLOAD_TTL_SECONDS = 300;

/**
 * The twin only: presigned URLs point at the portal's own origin (`/_s3`, which its gateway relays
 * to the S3 emulator once it has checked the signature as S3 does, adding S3's response overrides:
 * infra/local/s3-relay.ts), so that browsers use them as they use S3's.
 */
let publicClient: S3Client | undefined;
function presigner(): S3Client {
  const endpoint = process.env.PLAC_S3_PUBLIC_ENDPOINT;
  if (!endpoint) return s3Client();
  publicClient ??= new S3Client({ endpoint, forcePathStyle: true });
  return publicClient;
}
const DOWNLOAD_TTL_SECONDS = 300;

export async function presignUpload(key: string, contentType: string): Promise<string> {
  return presigner().presign(new PutObjectCommand({ Bucket: config.documentsBucket, Key: key, ContentType: contentType }), UPLOAD_TTL_SECONDS);
}

/** How a user file is handed to the browser: shown in the page (an avatar) or saved as a file. */
export type Disposition = { inline: true } | { inline?: false; fileName: string };

/**
 * A short-lived URL for one stored file. Every user file is answered with the content type it was
 * checked and stored with (ResponseContentType) and, unless it is meant to be shown inline, as an
 * attachment under a sanitised name, so a browser never renders a downloaded file in a page.
 */
export async function presignDownload(
  key: string,
  contentType: string,
  disposition: Disposition,
  ttlSeconds = DOWNLOAD_TTL_SECONDS,
): Promise<string> {
  return presigner().presign(
    new GetObjectCommand({
      Bucket: config.documentsBucket,
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: disposition.inline ? 'inline' : `attachment; filename="${safeFileName(disposition.fileName)}"`,
    }),
    ttlSeconds,
  );
}

export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const base = last.normalize('NFD').replace(/\p{Diacritic}/gu, '').replace(/[^\w.-]+/g, '_').replace(/^\.+/, '');
  return base.slice(-120) || 'arquivo';
}
