import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageSettings } from '~/server/platform/config.server';

// A real S3-API server (s3rver, files in a temporary folder) on a free loopback port, with one
// bucket, for tests of uploads kept in object storage. Its fixed keys are S3RVER / S3RVER.

export interface S3Sink {
  bucket: string;
  endpoint: string;
  /** The settings a server is started with to use this bucket. */
  env: Record<string, string>;
  settings(prefix?: string): S3StorageSettings;
  close(): Promise<void>;
}

export async function startS3(bucket = 'tdg-media'): Promise<S3Sink> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    bucket,
    endpoint,
    env: {
      STORAGE_URL: `s3://${bucket}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_S3: endpoint,
    },
    settings: (prefix = '') => ({
      kind: 's3',
      bucket,
      prefix,
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
