import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from './aws';
import { config } from './env';

/**
 * Files move between browsers and the documents bucket through short-lived presigned URLs, never
 * through the Lambda: the API hands out a URL bound to one key, one content type and a short life.
 * Checking what was uploaded (size, magic bytes) is the job of the feature that accepts the file.
 */
const UPLOAD_TTL_SECONDS = 300;
const DOWNLOAD_TTL_SECONDS = 300;

export async function presignUpload(key: string, contentType: string): Promise<string> {
  return getSignedUrl(s3Client(), new PutObjectCommand({ Bucket: config.documentsBucket, Key: key, ContentType: contentType }), {
    expiresIn: UPLOAD_TTL_SECONDS,
  });
}

/** `fileName` becomes the download's name (Content-Disposition), sanitised to safe characters. */
export async function presignDownload(key: string, fileName?: string, ttlSeconds = DOWNLOAD_TTL_SECONDS): Promise<string> {
  return getSignedUrl(
    s3Client(),
    new GetObjectCommand({
      Bucket: config.documentsBucket,
      Key: key,
      ...(fileName ? { ResponseContentDisposition: `attachment; filename="${safeFileName(fileName)}"` } : {}),
    }),
    { expiresIn: ttlSeconds },
  );
}

export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const base = last.normalize('NFD').replace(/\p{Diacritic}/gu, '').replace(/[^\w.-]+/g, '_').replace(/^\.+/, '');
  return base.slice(-120) || 'arquivo';
}
