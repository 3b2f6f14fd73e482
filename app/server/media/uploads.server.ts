import { getDb } from '../db/db.server.ts';
import { z } from 'zod';
import { InvalidImageError, storeImage, type UploadFolder } from './storage.server.ts';
import { formRefusal, parseForm } from '../http/forms.server.ts';
import { getLogger } from '../platform/logger.server.ts';

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

/** How one upload endpoint stores what it is sent. */
export interface ImageUploadRules {
  /** The folder, fixed or chosen by the form's `type` field (undefined: that type is refused). */
  folder: UploadFolder | ((type: string | undefined) => UploadFolder | undefined);
  maxBytes: number;
  messages: { type: string; size: string; failed: string };
  maxWidth?: number;
  responsive?: boolean;
}

const uploadSchema = z.object({ type: z.string().max(40).optional(), file: z.instanceof(File) });

/**
 * The upload endpoints' one action: reads the multipart body under the cap (refused before it is read
 * when it says it is larger), stores the image and answers `{ url }` or `{ error }` as JSON.
 */
export async function answerImageUpload(request: Request, uploadedBy: string, rules: ImageUploadRules): Promise<Response> {
  const form = await parseForm(request, uploadSchema, {
    maxBytes: rules.maxBytes + 64_000,
    tooLargeMessage: rules.messages.size,
  });
  if (!form.ok) return form.refused ? formRefusal(form) : Response.json({ error: rules.messages.type }, { status: 400 });
  const { type, file } = form.values;
  const folder = typeof rules.folder === 'function' ? rules.folder(type) : rules.folder;
  if (!folder) return Response.json({ error: rules.messages.type }, { status: 400 });
  try {
    const url = await storeUploadedImage(file, {
      folder,
      maxBytes: rules.maxBytes,
      messages: rules.messages,
      uploadedBy,
      ...(rules.maxWidth ? { maxWidth: rules.maxWidth } : {}),
      ...(rules.responsive === false ? { responsive: false } : {}),
    });
    return Response.json({ url });
  } catch (error) {
    if (error instanceof UploadRefusedError) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}
