import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.server';

describe('settings', () => {
  it('works with no settings at all', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.https).toBe(false);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535'],
    [{ PORT: '0' }, 'PORT must be a whole number from 1 to 65535'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 1 to 65535'],
    [{ PORT: '80.5' }, 'PORT must be a whole number from 1 to 65535'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL must be a full URL starting with postgres:// or postgresql://'],
    [{ PUBLIC_URL: 'example.org' }, 'PUBLIC_URL must be a full URL starting with http:// or https://'],
    [{ SUPER_ADMIN_EMAIL: 'not-an-email' }, 'SUPER_ADMIN_EMAIL must be an email address'],
    [{ SUPER_ADMIN_PASSWORD: '12345' }, 'SUPER_ADMIN_PASSWORD must be at least 6 characters'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL must be a full URL starting with smtp:// or smtps://'],
    [{ DONATION_URL: 'javascript:alert(1)' }, 'DONATION_URL must be a full URL starting with http:// or https://'],
    [
      { TRUST_PROXY: 'maybe' },
      'TRUST_PROXY must be false, the number of proxies in front (such as 1), or a comma-separated list of proxy addresses, subnets such as 10.0.0.0/8, loopback, linklocal or uniquelocal; "maybe" is none of these',
    ],
    [{ ORG_PHONE: 'call us' }, 'ORG_PHONE must be a phone number, such as +256 700 123 456'],
  ])('refuses %o with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads every setting it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/tdg',
      DATABASE_URL: 'postgres://u@db:5432/tdg',
      PUBLIC_URL: 'https://tdg.example/',
      SUPER_ADMIN_EMAIL: 'Boss@Example.org',
      ORG_NAME: 'Example Org',
      TRUST_PROXY: '1',
      COURSE_URL: 'https://course.example/x',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/tdg',
      databaseUrl: 'postgres://u@db:5432/tdg',
      publicUrl: 'https://tdg.example',
      https: true,
      superAdminEmail: 'boss@example.org',
      trustProxy: 1,
    });
    expect(config.organisation.name).toBe('Example Org');
    expect(config.organisation.courseUrl).toBe('https://course.example/x');
  });

  describe('TRUST_PROXY', () => {
    it('is off unless set, and off for false, 0 or nothing', () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      for (const off of ['', 'false', 'FALSE', '0', ' 0 ']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    });

    it('takes the number of proxies in front', () => {
      expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
      expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2);
    });

    it("takes proxy addresses, subnets and Express's range names", () => {
      expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12 ,2001:db8::/32,::1,LinkLocal,uniquelocal' }).trustProxy).toEqual([
        '10.0.0.5',
        '172.16.0.0/12',
        '2001:db8::/32',
        '::1',
        'LinkLocal',
        'uniquelocal',
      ]);
    });

    it('refuses true, which would let any client choose its own address, and says what to set instead', () => {
      for (const value of ['true', 'TRUE', ' True ']) {
        expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
          "TRUST_PROXY=true would trust any client's X-Forwarded-For; set the number of proxies in front (usually 1) or their addresses",
        );
      }
    });

    it.each([
      ['0.0.0.0/0', "TRUST_PROXY 0.0.0.0/0 would trust any client's X-Forwarded-For; list only your proxies' addresses"],
      ['::/0', "TRUST_PROXY ::/0 would trust any client's X-Forwarded-For; list only your proxies' addresses"],
      ['10.0.0.0/33', 'TRUST_PROXY 10.0.0.0/33: the prefix after / must be at most 32'],
      ['2001:db8::/129', 'TRUST_PROXY 2001:db8::/129: the prefix after / must be at most 128'],
      ['10.0.0.256', '"10.0.0.256" is none of these'],
      ['10.0.0.0/8/8', '"10.0.0.0/8/8" is none of these'],
      ['10.0.0.0/255.0.0.0', '"10.0.0.0/255.0.0.0" is none of these'],
      ['proxy.example', '"proxy.example" is none of these'],
      ['loopback, 1', '"1" is none of these'],
      ['yes', '"yes" is none of these'],
      [',', 'TRUST_PROXY must be false, the number of proxies in front'],
      ['-1', '"-1" is none of these'],
    ])('refuses %s with one clear line', (value, message) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
    });
  });

  describe('STORAGE_URL', () => {
    it('keeps uploads on disk unless set, whatever AWS variables the machine has', () => {
      expect(loadConfig({}).storage).toEqual({ kind: 'disk' });
      expect(loadConfig({ STORAGE_URL: '', AWS_ACCESS_KEY_ID: 'only-one', AWS_ENDPOINT_URL_S3: 'nonsense' }).storage).toEqual({
        kind: 'disk',
      });
    });

    it('reads the bucket, its prefix and the standard AWS variables', () => {
      expect(
        loadConfig({
          STORAGE_URL: 's3://tdg-media/site/uploads/',
          AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
          AWS_SECRET_ACCESS_KEY: 'secret',
          AWS_REGION: 'eu-west-1',
          AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
        }).storage,
      ).toEqual({
        kind: 's3',
        bucket: 'tdg-media',
        prefix: 'site/uploads/',
        region: 'eu-west-1',
        endpoint: 'http://127.0.0.1:9000',
        credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      });
      // No keys: the SDK's own chain (an instance role); no region: one the SDK can sign with.
      expect(loadConfig({ STORAGE_URL: 's3://media.example.org' }).storage).toMatchObject({
        bucket: 'media.example.org',
        prefix: '',
        region: 'us-east-1',
        endpoint: undefined,
        credentials: undefined,
      });
    });

    it.each([
      [{ STORAGE_URL: 'uploads' }, 'STORAGE_URL must look like s3://bucket or s3://bucket/prefix'],
      [{ STORAGE_URL: 'https://bucket.example.org' }, 'STORAGE_URL must look like s3://bucket or s3://bucket/prefix'],
      [{ STORAGE_URL: 's3://Bucket' }, 'STORAGE_URL must look like s3://bucket or s3://bucket/prefix'],
      [{ STORAGE_URL: 's3://tdg/../other' }, 'STORAGE_URL: the prefix after the bucket may hold only'],
      [{ STORAGE_URL: 's3://tdg', AWS_ACCESS_KEY_ID: 'AKIA' }, 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together'],
      [{ STORAGE_URL: 's3://tdg', AWS_SECRET_ACCESS_KEY: 'x' }, 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together'],
      [{ STORAGE_URL: 's3://tdg', AWS_REGION: 'EU West' }, 'AWS_REGION must be a region name such as eu-west-1'],
      [
        { STORAGE_URL: 's3://tdg', AWS_ENDPOINT_URL_S3: 'minio:9000' },
        'AWS_ENDPOINT_URL_S3 must be a full URL starting with http:// or https://',
      ],
    ])('refuses %o with one clear line', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '', PUBLIC_URL: '' }).databaseUrl).toBeUndefined();
  });
});
