import type { InputHTMLAttributes, RefObject } from 'react';
import { IMAGE_ACCEPT } from '~/lib/uploads';
import { useHydrated } from '~/lib/use-hydrated';

// What the dashboard's image pickers share: the file input and the upload it starts.

type ImageFileInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'accept' | 'onChange'> & {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  /** The chosen file, once the page runs JavaScript. */
  onFile: (file: File) => void;
};

/**
 * An image file input. Without JavaScript the file is sent with the form (under the input's id);
 * with it, `onFile` uploads it on its own and the input has no name.
 */
export function ImageFileInput({ id, inputRef, onFile, ...rest }: ImageFileInputProps) {
  const hydrated = useHydrated();
  return (
    <input
      ref={inputRef}
      id={id}
      type="file"
      name={hydrated ? undefined : id}
      accept={IMAGE_ACCEPT}
      {...rest}
      onChange={(e) => {
        const file = e.target.files?.[0];
        if (hydrated && file) onFile(file);
      }}
    />
  );
}

export type ImageUploadResult = { ok: true; url: string } | { ok: false; status: number; error: string | undefined };

/** Posts `file` (after `fields`) to a dashboard upload endpoint; the stored image's address, or the refusal. */
export async function uploadImage(endpoint: string, file: File, fields: Record<string, string> = {}): Promise<ImageUploadResult> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append('file', file);
  const response = await fetch(endpoint, { method: 'POST', body });
  const result = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
  return response.ok && result.url ? { ok: true, url: result.url } : { ok: false, status: response.status, error: result.error };
}
