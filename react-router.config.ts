import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  appDirectory: 'app',
  // BUILD_DIR lets two checkouts' test runs build side by side; normally unset.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config;
