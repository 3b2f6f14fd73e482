import { getDb } from '../db/db.server.ts';
import { InvalidImageError, storeImage, type UploadFolder } from './storage.server.ts';
import { getLogger } from '../platform/logger.server.ts';

/** An image that is not kept: the message for the person who sent it, and the status the refusal deserves. */
export class UploadRefusedError extends Error {
  readonly status: 400 | 413 | 500;
  constructor(message: string, status: 400 | 413 | 500) {
    super(message);
    this.status = status;
  }
}

/**
 * Stores an uploaded image after checking its size and decoding it (the name and the browser's
 * declared type prove nothing). Returns the public URL.
 */
export async function storeUploadedImage(
  file: File,
  options: {
    folder: UploadFolder;
    maxBytes: number;
    messages: { type: string; size: string; failed: string };
    uploadedBy: string;
    maxWidth?: number;
    responsive?: boolean;
  },
): Promise<string> {
  if (file.size > options.maxBytes) throw new UploadRefusedError(options.messages.size, 413);
  if (file.size === 0) throw new UploadRefusedError(options.messages.type, 400);
  try {
    const stored = await storeImage(getDb(), {
      folder: options.folder,
      originalName: file.name || 'image',
      bytes: Buffer.from(await file.arrayBuffer()),
      uploadedBy: options.uploadedBy,
      ...(options.maxWidth ? { maxWidth: options.maxWidth } : {}),
      ...(options.responsive === false ? { responsive: false } : {}),
    });
    return stored.url;
  } catch (error) {
    if (error instanceof InvalidImageError) throw new UploadRefusedError(options.messages.type, 400);
    getLogger().error({ err: error }, 'storing an upload failed');
    throw new UploadRefusedError(options.messages.failed, 500);
  }
}
