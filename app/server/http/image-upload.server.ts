import { z } from 'zod';
import type { UploadFolder } from '../media/storage.server.ts';
import { storeUploadedImage, UploadRefusedError } from '../media/uploads.server.ts';
import { formRefusal, parseForm } from './forms.server.ts';

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
