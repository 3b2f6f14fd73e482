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
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be true or false'],
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
      TRUST_PROXY: 'true',
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
      trustProxy: true,
    });
    expect(config.organisation.name).toBe('Example Org');
    expect(config.organisation.courseUrl).toBe('https://course.example/x');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '', PUBLIC_URL: '' }).databaseUrl).toBeUndefined();
  });
});
