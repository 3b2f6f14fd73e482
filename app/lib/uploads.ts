// spec §5, §8, §9: image upload rules and messages, verbatim, for both uploaders.
export const IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp'];
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

export const PROFILE_PICTURE_MAX_BYTES = 2_097_152;
export const PROFILE_UPLOAD_MESSAGES = {
  type: 'Please upload a valid image file (JPEG, PNG, GIF, or WebP).',
  size: 'Please upload an image smaller than 2MB.',
  failed: 'Error uploading profile picture. Please try again.',
} as const;

export const CONTENT_IMAGE_MAX_BYTES = 5_242_880;
export const CONTENT_UPLOAD_MESSAGES = {
  type: 'Please upload a valid image file (JPEG, PNG, GIF, or WebP)',
  size: 'Please upload an image smaller than 5MB',
  failed: 'Error uploading image. Please try again.',
  uploaded: 'Image uploaded successfully!',
  removed: 'Image removed successfully!',
} as const;
