import { beforeEach, describe, expect, it } from 'vitest';
import { captureLogLines } from '../../../tests/support/log-lines';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { formPost, streamedFormPost } from '../../../tests/support/requests';
import { getSiteInfo } from '../site/site.server';
import { saveSiteSettings } from '../site/site-settings.server';
import { getConfig } from '../platform/config.server';
import type { StaffUser } from '../staff/auth.server';
import { RuleError } from '../platform/rule-error.server';
import type { Role } from '../../lib/permissions';
import {
  APPLICATION_ERRORS,
  APPLICATION_FORM_TEXT,
  APPLICATION_RATE_LIMIT,
  CONFIRMATION_LIMIT,
  kampalaToday,
  readAnswers,
  type ApplicationInput,
  type ApplicationResult,
} from '../../lib/applications';
import { MESSAGE_TEXT } from '../../lib/messages';
import { receiveApplication } from './applications.server';
import { submitApplicationForm } from '../http/application-form.server';
import {
  deleteExpiredMessages,
  deleteMessage,
  getMessage,
  messageList,
  openMessage,
  replyToMessage,
  setMessageStatus,
} from './messages.server';

// Issue 27 part 1: applications are inbox messages of a kind. The form's HTTP half (checks, limits,
// honeypot, answers) and the inbox's handling of them (filter by kind, statuses, replies, CSV,
// deletion and retention with their mails), on each engine.

const staff = (role: Role): StaffUser => ({
  id: `id-${role}`,
  name: `${role[0]}${role.slice(1).toLowerCase()} Namusoke`,
  email: `${role.toLowerCase()}@staff.example.org`,
  role,
  bio: '',
  profilePicture: null,
  sessionId: 's',
});
const ADMIN = staff('ADMIN');
const IP = '198.51.100.31';

const inAMonth = () => {
  const date = new Date(`${kampalaToday()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 30);
  return date.toISOString().slice(0, 10);
};

const VOLUNTEER = {
  name: 'Nabirye Sarah',
  email: 'sarah@example.org',
  phone: '',
  sign_language: 'learning',
  skill_teaching: 'yes',
  skill_it: 'yes',
  available_weekends: 'yes',
  available_online: 'yes',
  message: 'My brother is deaf and I want to help other families.',
  consent: 'yes',
  website: '',
};
const PARTNER = {
  organisation: 'Wakiso Parents Association',
  name: 'Okello Peter',
  email: 'peter@wakiso.example.org',
  phone: '+256 700 000 002',
  message: 'We would like sign language classes for our members.',
  consent: 'yes',
  website: '',
};

const logLines = captureLogLines();

describe.each(ENGINES)('applications on %s', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database().db;
  const submit = (path: string, fields: Record<string, string>, clientIp = '203.0.113.8') =>
    submitApplicationForm({
      kind:
        path === '/volunteer' ? 'volunteer' : path === '/partner' ? 'partner' : path === '/book-speaker' ? 'speaker' : 'design',
      request: formPost(`http://localhost${path}`, fields),
      clientIp,
      db: db(),
    });
  const outbox = () => db().selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();
  const rows = () => db().selectFrom('contacts').selectAll().execute();

  beforeEach(async () => {
    await db().deleteFrom('rate_limits').execute();
    await db().deleteFrom('contact_replies').execute();
    await db().deleteFrom('contacts').execute();
    await db().deleteFrom('mail_outbox').execute();
    await db().deleteFrom('jobs').execute();
    await db().deleteFrom('audit_log').execute();
    logLines.length = 0;
  });

  it('stores a volunteer application of its kind, with checked answers, and mails the team and the applicant', async () => {
    expect(await submit('/volunteer', VOLUNTEER)).toEqual({ status: 200, result: { status: 'sent' } });
    const [row] = await rows();
    expect(row).toMatchObject({
      kind: 'volunteer',
      status: 'new',
      name: VOLUNTEER.name,
      email: VOLUNTEER.email,
      phone: null,
      subject: 'Volunteer: Nabirye Sarah',
      message: VOLUNTEER.message,
    });
    expect(readAnswers(row!.kind, row!.answers)).toEqual({
      kind: 'volunteer',
      signLanguage: 'learning',
      skills: ['teaching', 'it'],
      availability: ['weekends', 'online'],
    });

    const site = await getSiteInfo();
    const [team, confirmation] = await outbox();
    expect(team).toMatchObject({
      to_address: site.email,
      reply_to: VOLUNTEER.email,
      subject: 'New volunteer application: Volunteer: Nabirye Sarah',
    });
    expect(team!.text_body).toContain('Sign language: I am learning');
    expect(team!.text_body).toContain('Other skills: Teaching or training, Computers and IT');
    expect(team!.text_body).toContain('Available: Weekends, Online, from home');
    expect(team!.text_body).toContain(VOLUNTEER.message);
    expect(team!.text_body).toContain(`${getConfig().publicUrl}/admin/messages/${row!.id}`);
    // The confirmation repeats none of the form's words, and the row knows it, to delete it with the application.
    expect(confirmation).toMatchObject({
      to_address: VOLUNTEER.email,
      reply_to: site.email,
      subject: 'We received your volunteer application',
    });
    for (const words of [VOLUNTEER.name, VOLUNTEER.message]) expect(confirmation!.text_body).not.toContain(words);
    expect(row!.confirmation_mail_id).toBe(confirmation!.id);

    const log = logLines.join('\n');
    expect(log).toContain('application stored');
    for (const secret of [VOLUNTEER.email, VOLUNTEER.message, VOLUNTEER.name]) expect(log).not.toContain(secret);
  });

  it('confirms in the language of the form’s page, with its link, and the team’s mail stays English', async () => {
    await saveSiteSettings(staff('SUPER_ADMIN'), 'languages', { languageLg: 'on', languageSw: 'off' }, { ip: IP });
    const request = formPost('http://localhost/lg/volunteer', VOLUNTEER);
    const answer = await submitApplicationForm({ kind: 'volunteer', request, clientIp: '203.0.113.8', db: db() });
    expect(answer.status).toBe(200);
    const [team, confirmation] = await outbox();
    expect(team!.subject).toBe('New volunteer application: Volunteer: Nabirye Sarah');
    expect(team!.text_body).toContain('Sent from the Luganda pages of the website: a reply in Luganda may suit them best.');
    expect((await rows())[0]!.language).toBe('lg');
    expect(confirmation!.subject).toBe('Tufunye okusaba kwo okw’obwannakyewa');
    expect(confirmation!.text_body).toContain('Oli otya,');
    expect(confirmation!.text_body).toContain('(essaawa z’e Kampala)');
    expect(confirmation!.text_body).toContain(`${getConfig().publicUrl}/lg/volunteer`);
    expect(confirmation!.text_body).not.toMatch(
      /Thank you|January|February|March|April|May|June|July|August|September|October|November|December/,
    ); // From the Swahili page while Swahili is turned off (a page left open): English, with the English link.
    await db().deleteFrom('mail_outbox').execute();
    const swahili = formPost('http://localhost/sw/volunteer', { ...VOLUNTEER, email: 'amani@example.org' });
    await submitApplicationForm({ kind: 'volunteer', request: swahili, clientIp: '203.0.113.8', db: db() });
    const [, english] = await outbox();
    expect(english!.subject).toBe('We received your volunteer application');
    expect(english!.text_body).toContain(`${getConfig().publicUrl}/volunteer`);
  });

  it('takes a volunteer with a phone number only: no confirmation, no Reply-To, and no reply by mail', async () => {
    expect((await submit('/volunteer', { ...VOLUNTEER, email: '', phone: '+256 772 000 111' })).status).toBe(200);
    const [row] = await rows();
    expect(row).toMatchObject({ email: '', phone: '+256 772 000 111', confirmation_mail_id: null });
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.reply_to).toBeNull();
    expect(mails[0]!.text_body).toContain('They gave no email address');
    await expect(replyToMessage(ADMIN, row!.id, 'Hello', IP)).rejects.toMatchObject({
      status: 400,
      message: MESSAGE_TEXT.noEmail('+256 772 000 111'),
    });
  });

  it('refuses an incomplete form with a message beside each field, giving back what was typed and ticked', async () => {
    const outcome = await submit('/volunteer', {
      ...VOLUNTEER,
      email: '',
      phone: '',
      sign_language: '',
      available_weekends: '',
      available_online: '',
      consent: '',
    });
    expect(outcome.status).toBe(400);
    const result = outcome.result as Extract<ApplicationResult, { status: 'invalid' }>;
    expect(result.status).toBe('invalid');
    expect(result.errors).toMatchObject({
      email: APPLICATION_ERRORS.reach,
      sign_language: APPLICATION_ERRORS.signLanguage,
      consent: APPLICATION_ERRORS.consent,
    });
    expect(result.values).toMatchObject({ name: VOLUNTEER.name, skill_teaching: 'yes', message: VOLUNTEER.message });
    expect(result.values.website).toBeUndefined();

    const noBoxes = Object.fromEntries(Object.entries(VOLUNTEER).filter(([name]) => !name.startsWith('available_')));
    const missing = (await submit('/volunteer', noBoxes)).result as Extract<ApplicationResult, { status: 'invalid' }>;
    expect(missing.errors).toEqual({ availability: APPLICATION_ERRORS.availability });

    const speaker = { ...PARTNER, date: '2001-01-01', audience: '' };
    const refused = (await submit('/book-speaker', speaker)).result as Extract<ApplicationResult, { status: 'invalid' }>;
    expect(refused.errors).toEqual({ date: APPLICATION_ERRORS.date.past, audience: APPLICATION_ERRORS.audience.required });
    const unreal = (await submit('/book-speaker', { ...speaker, date: '2031-02-30', audience: 'Teachers' })).result as Extract<
      ApplicationResult,
      { status: 'invalid' }
    >;
    expect(unreal.errors).toEqual({ date: APPLICATION_ERRORS.date.invalid });
    const partner = (await submit('/partner', { ...PARTNER, email: '', organisation: '' })).result as Extract<
      ApplicationResult,
      { status: 'invalid' }
    >;
    expect(partner.errors).toEqual({
      email: APPLICATION_ERRORS.email.required,
      organisation: APPLICATION_ERRORS.organisation.required,
    });
    expect(await rows()).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('keeps a speaker and a design-help request with their date and audience (the design date optional)', async () => {
    const date = inAMonth();
    expect((await submit('/book-speaker', { ...PARTNER, date, audience: '40 teachers' })).status).toBe(200);
    expect((await submit('/design-help', { ...PARTNER, date: '', audience: 'Deaf parents' })).status).toBe(200);
    const stored = await db().selectFrom('contacts').select(['kind', 'subject', 'answers']).orderBy('kind').execute();
    expect(stored.map((r) => [r.kind, r.subject, readAnswers(r.kind, r.answers)])).toEqual([
      [
        'design',
        'Design help: Wakiso Parents Association',
        { kind: 'design', organisation: PARTNER.organisation, date: null, audience: 'Deaf parents' },
      ],
      [
        'speaker',
        `Speaker request: Wakiso Parents Association, ${date}`,
        { kind: 'speaker', organisation: PARTNER.organisation, date, audience: '40 teachers' },
      ],
    ]);
  });

  it('turns bots away (honeypot, size) and applies one per-address limit to the four forms', async () => {
    const bot = await submit('/partner', { ...PARTNER, website: 'http://spam.example' });
    expect(bot).toMatchObject({ status: 400, result: { status: 'refused', message: APPLICATION_FORM_TEXT.automated } });
    const large = await submitApplicationForm({
      kind: 'partner',
      request: streamedFormPost('http://localhost/partner', 'message', 200_000).request,
      clientIp: '203.0.113.9',
      db: db(),
    });
    expect(large).toMatchObject({ status: 413, result: { status: 'refused', message: APPLICATION_FORM_TEXT.tooLarge } });

    const ip = '203.0.113.10';
    for (let i = 0; i < APPLICATION_RATE_LIMIT.limit; i++)
      expect((await submit(i % 2 ? '/volunteer' : '/partner', i % 2 ? VOLUNTEER : PARTNER, ip)).status).toBe(200);
    const limited = await submit('/partner', PARTNER, ip);
    expect(limited).toMatchObject({ status: 429, result: { status: 'refused', message: APPLICATION_FORM_TEXT.rateLimited } });
    expect(limited.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(await rows()).toHaveLength(APPLICATION_RATE_LIMIT.limit);
  });

  it('sends one address at most three confirmations a day, whoever types it', async () => {
    const input: ApplicationInput = {
      name: 'Someone',
      email: 'target@example.org',
      phone: null,
      message: 'Hello',
      answers: { kind: 'partner', organisation: 'Any' },
    };
    for (let i = 0; i < CONFIRMATION_LIMIT.limit + 2; i++)
      await receiveApplication({ ...input, email: i % 2 ? 'TARGET@example.org' : input.email }, db());
    const confirmations = (await outbox()).filter((m) => m.to_address.toLowerCase() === 'target@example.org');
    expect(confirmations).toHaveLength(CONFIRMATION_LIMIT.limit);
    expect(await rows()).toHaveLength(CONFIRMATION_LIMIT.limit + 2);
  });

  it('is filtered by kind and status in the inbox, stays New when opened, and becomes Contacted by a reply', async () => {
    await submit('/volunteer', VOLUNTEER);
    await submit('/partner', PARTNER);
    await db()
      .insertInto('contacts')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'A visitor',
        email: 'visitor@example.org',
        phone: null,
        subject: 'A question',
        message: 'Hello',
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    const page = async (params: string) => {
      const filter = messageList.filterFromParams(new URLSearchParams(params));
      return (await messageList.page(ADMIN, { filter })).items.map((m) => `${m.kind}:${m.status}`).toSorted();
    };
    expect(await page('')).toEqual(['message:new', 'partner:new', 'volunteer:new']);
    expect(await page('kind=partner')).toEqual(['partner:new']);
    expect(await page('kind=message')).toEqual(['message:new']);
    expect(await page('kind=nonsense')).toHaveLength(3);
    expect(await messageList.countByFacet()).toEqual({ message: 1, volunteer: 1, partner: 1, speaker: 0, design: 0 });
    expect((await messageList.countByStatus(undefined, 'volunteer')).new).toBe(1);
    // The organisation is found by search, though it is kept among the answers.
    expect(await page('q=wakiso%20parents')).toEqual(['partner:new']);

    const partner = (await rows()).find((r) => r.kind === 'partner')!;
    expect((await openMessage(ADMIN, partner.id, IP)).status).toBe('new');
    const reply = await replyToMessage(ADMIN, partner.id, 'Thank you, may we call you on Monday?', IP);
    expect(reply.to).toBe(PARTNER.email);
    const after = await getMessage(partner.id);
    expect(after).toMatchObject({ status: 'contacted', answers: { kind: 'partner', organisation: PARTNER.organisation } });
    expect(await page('status=contacted')).toEqual(['partner:contacted']);
    expect(await page('kind=partner&status=contacted')).toEqual(['partner:contacted']);
    expect(await page('kind=volunteer&status=contacted')).toEqual([]);

    expect(await setMessageStatus(ADMIN, partner.id, 'accepted', IP)).toEqual({ from: 'contacted', to: 'accepted' });
    // A reply to a decided application keeps its decision.
    await replyToMessage(ADMIN, partner.id, 'See you on Monday.', IP);
    expect((await getMessage(partner.id))?.status).toBe('accepted');
    // Each kind has its statuses: an application is never archived or spam, a message never accepted.
    await expect(setMessageStatus(ADMIN, partner.id, 'spam', IP)).rejects.toBeInstanceOf(RuleError);
    await expect(setMessageStatus(ADMIN, '00000000-0000-4000-8000-000000000001', 'accepted', IP)).rejects.toMatchObject({
      status: 400,
      message: MESSAGE_TEXT.statusNotForKind,
    });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target', '=', partner.id)
      .orderBy('at')
      .execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.detail) as Record<string, unknown>])).toEqual([
      ['message.replied', expect.objectContaining({ from: 'new', to: 'contacted' })],
      ['message.status_changed', { from: 'contacted', to: 'accepted' }],
      ['message.replied', expect.objectContaining({ from: 'accepted', to: 'accepted' })],
    ]);
  });

  it('exports its kind and answers to CSV, and takes its mails with it when deleted or expired', async () => {
    await submit('/volunteer', VOLUNTEER);
    await submit('/book-speaker', { ...PARTNER, date: inAMonth(), audience: '40 teachers' });
    let csv = '';
    for await (const chunk of messageList.csv(messageList.filterFromParams(new URLSearchParams('status=all&kind=volunteer'))))
      csv += chunk;
    const [header, line] = csv.replace('\uFEFF', '').split('\r\n');
    expect(header).toBe(
      'Received (UTC),Status,Name,Email,Phone,Subject,Message,First opened (UTC),Status changed (UTC),Changed by,Kind,Organisation,Date,Audience,Sign language,Skills,Availability',
    );
    expect(line).toContain(
      ',Volunteer application,,,,I am learning,Teaching or training; Computers and IT,"Weekends; Online, from home"',
    );
    expect(csv).not.toContain('Speaker request');

    const [volunteer, speaker] = await db().selectFrom('contacts').selectAll().orderBy('kind', 'desc').execute();
    expect(await outbox()).toHaveLength(4);
    await deleteMessage(ADMIN, volunteer!.id, IP);
    const left = await outbox();
    expect(left).toHaveLength(2);
    expect(left.every((m) => !m.text_body.includes(volunteer!.id) && m.id !== volunteer!.confirmation_mail_id)).toBe(true);

    // Past the retention period: the application goes, and its confirmation with it (though the mail itself is recent).
    await db().updateTable('contacts').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', speaker!.id).execute();
    expect((await deleteExpiredMessages()).deleted).toBe(1);
    expect((await outbox()).map((m) => m.id)).not.toContain(speaker!.confirmation_mail_id);
    expect(await rows()).toEqual([]);
  });
});
