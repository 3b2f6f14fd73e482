import { usePublicLayout } from './public-layout';

// Issue 24: the phones' data saver. A browser with it on sends `Save-Data: on` with every request;
// public pages then load no picture until the visitor asks for it (decision 025).

export function wantsSaveData(headers: Headers): boolean {
  return headers.get('save-data')?.trim().toLowerCase() === 'on';
}

export const SAVE_DATA_TEXTS = {
  /** Before the picture's description. */
  notLoaded: 'Picture not loaded, to save data:',
  load: 'Load picture',
} as const;

/** A size as a visitor reads it: "12 KB", "1.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether the page being rendered was asked for with Save-Data (the public layout's loader says). */
export function useSaveData(): boolean {
  return usePublicLayout()?.saveData === true;
}

/** The video player's markup without its poster: a picture the visitor did not ask for. */
export function withoutPoster(player: string): string {
  return player.replace(/ poster="[^"<>]*"/, '');
}
