import { describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs } from '../../../tests/support/staff';
import type { Role } from '../../lib/permissions';

// Staff told "Password reset email sent" must not believe it when the server has no mail server:
// the dashboard says so to every role that sends mail, and to no other.

const ROLES: Role[] = ['SUPER_ADMIN', 'ADMIN', 'EDITOR', 'AUTHOR', 'VIEWER'];

describe.each(ENGINES)('the dashboard frame on %s', (engine) => {
  useTestDatabase(engine);

  async function mailOffByRole(smtpUrl: string): Promise<Record<string, boolean>> {
    vi.stubEnv('SMTP_URL', smtpUrl);
    vi.resetModules(); // the settings are read once per process (the database handle is kept on globalThis)
    try {
      const { dashboardFrame } = await import('./dashboard-frame.server');
      return Object.fromEntries(
        await Promise.all(ROLES.map(async (role) => [role, (await dashboardFrame(staffAs(role))).mailOff])),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  }

  it('says mail goes nowhere, to the roles that send it, only when no mail server is set', async () => {
    expect(await mailOffByRole('')).toEqual({ SUPER_ADMIN: true, ADMIN: true, EDITOR: true, AUTHOR: false, VIEWER: false });
    expect(await mailOffByRole('smtp://127.0.0.1:2525')).toEqual({
      SUPER_ADMIN: false,
      ADMIN: false,
      EDITOR: false,
      AUTHOR: false,
      VIEWER: false,
    });
  });
});
