// Issue 13: revision history and autosave (docs/decisions/016-revisions-and-autosave.md). Shared by the
// server, which stores the snapshots, and the browser, which shows and restores them.
import { CONTENT_FIELDS, type ContentFormValues } from './content-form';

export const REVISION_KINDS = ['published', 'updated', 'draft', 'scheduled', 'restored', 'autosave'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** Revisions kept per item: the newest 50, and always the first one (issue 13). */
export const REVISIONS_KEPT = 50;

/**
 * Issue 14: the sign-language video an item had when saved, as the history describes it. Only a
 * description: a replaced video's files are removed at once, so a restore keeps the current video.
 */
export interface RevisionVideo {
  id: string;
  name: string;
  /** null until it has been processed. */
  durationSeconds: number | null;
  captions: boolean;
}

/**
 * What the revision view says when a revision's video is not the item's current one (restoring keeps
 * the current one); null when they are the same, or the revision did not record it.
 */
export function revisionVideoNote(recorded: RevisionVideo | null | undefined, currentId: string | null): string | null {
  if (recorded === undefined) return null;
  const then = recorded?.id ?? null;
  if (then === currentId) return null;
  if (then === null) return REVISION_MESSAGES.videoAdded;
  return currentId === null ? REVISION_MESSAGES.videoRemoved : REVISION_MESSAGES.videoReplaced;
}

/** An item as it was saved: every field of the form, the body as stored, its status and schedule. */
export interface RevisionSnapshot {
  title: string;
  category: string;
  tags: string[];
  summary: string | null;
  imageUrl: string | null;
  imageAlt: string;
  content: string;
  /** Issue 26: the easy-read text ('' for none; absent in revisions saved before it existed). */
  easyRead?: string;
  status: string;
  /** ISO-8601 UTC, or null when it was not scheduled. */
  scheduledAt: string | null;
  /** Its video, null for none; absent in revisions saved before videos were recorded. */
  video?: RevisionVideo | null;
}

/** What the history calls each kind of save. */
export const REVISION_KIND_LABELS: Record<RevisionKind, string> = {
  published: 'Published',
  updated: 'Updated',
  draft: 'Draft saved',
  scheduled: 'Scheduled',
  restored: 'Restored',
  autosave: 'Autosaved',
};

export function revisionKindLabel(kind: string): string {
  return (REVISION_KIND_LABELS as Record<string, string>)[kind] ?? kind;
}

/** Who saved a revision, as the history shows it; a save with no person is the scheduled-publishing job. */
export function revisionActorLabel(revision: { kind: string; actorName: string | null }): string {
  if (revision.actorName) return revision.actorName;
  return revision.kind === 'published' ? 'Scheduled publishing' : 'Not recorded';
}

/** The form's fields as the browser keeps them between saves (its localStorage and the server slot). */
export type AutosaveValues = ContentFormValues;

export const AUTOSAVE_FIELDS = CONTENT_FIELDS;

/** The slot an open form keeps its unsaved changes in: the item's id, or "new-<type>" before it exists. */
export function autosaveKey(target: { id: string } | { type: string }): string {
  return 'id' in target ? target.id : `new-${target.type}`;
}

export const REVISION_MESSAGES = {
  restoredFrom: (time: string) => `Restored from ${time} — not published until you press Update`,
  imageGone: 'The image of this version is no longer stored.',
  imageGoneRestored: 'The image of this version is no longer stored, so it was restored without an image.',
  restoreUnsaved: (time: string) => `Restore unsaved changes from ${time}`,
  revisionNotFound: 'That version was not found. It may have been removed from the history.',
  leaveConfirm: 'You have unsaved changes. Leave this page and lose them?',
  videoReplaced:
    'This version had another sign-language video. A replaced video is not kept, so restoring this version keeps the current one.',
  videoRemoved:
    'This version had a sign-language video, removed since. A removed video is not kept, so restoring this version brings back its words but not the video.',
  videoAdded:
    'This version had no sign-language video. Restoring it keeps the current one: remove it on the form if you want none.',
} as const;

/** One run of words in a comparison: in both versions, only in the revision (deleted since), or only now. */
export interface WordChange {
  type: 'same' | 'deleted' | 'inserted';
  text: string;
}

/** A field's word comparison; null when the texts differ too much to compare word by word. */
export type WordComparison = WordChange[] | null;

/** One field of an item that differs between two versions. */
export interface FieldChange {
  label: string;
  comparison: WordComparison;
}
