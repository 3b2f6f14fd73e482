import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffUserByEmail } from '../../../tests/support/staff';
import { textLength } from '~/lib/content-form';
import { checkFormSync } from '~/lib/forms';
import type { Role } from '~/lib/permissions';
import {
  DEFAULT_ACCESSIBILITY_HTML,
  DEFAULT_TERMS_HTML,
  defaultPrivacyHtml,
  GROUP_IDS,
  GROUP_SPECS,
  groupSchema,
  LEGAL_DEFAULT_UPDATED,
  linkMessage,
  numberMessage,
  SETTINGS_MESSAGES,
  settingKey,
  TEXT_DEFAULTS,
  tooLongMessage,
  valueNameMissing,
  type SettingGroup,
} from '~/lib/site-settings';
import type { StaffUser } from '../staff/auth.server';
import { loadConfig } from '../platform/config.server';
import { findFounderStoryPath, getFounderProfile } from './founder.server';
import { newId, nowIso } from '../platform/ids.server';
import { pruneUnusedUploads, ABANDONED_AFTER_MS } from '../media/media.server';
import { RuleError } from '../platform/rule-error.server';
import { sanitizeArticleHtml } from '../platform/sanitize.server';
import { SETTING_KEYS, writeSetting } from '../platform/settings.server';
import { getAboutTexts, getHomeTexts, getLegalPage, getOutgoingLink, getSiteInfo } from './site.server';
import { loadSettingsView, saveSiteSettings, SettingsConflictError } from './site-settings.server';
import { storeImage } from '../media/storage.server';

// The environment's value is the default of a field nobody edited (read once, on first use).
process.env.ORG_NAME = 'TDG Uganda Test';
process.env.DONATION_URL = 'https://donate.test.example/give';

const IP = '203.0.113.5';

/** The form's check, as the action runs it, for what a person typed. */
function parse(group: SettingGroup, input: Record<string, string>) {
  return checkFormSync(groupSchema(group), input);
}

describe('the settings forms check what is typed, in plain words', () => {
  it('takes only https links, and says so', () => {
    for (const bad of ['http://donate.example.org', 'javascript:alert(1)', 'donate.example.org', 'https://', 'https://a b.org']) {
      const result = parse('links', { donationUrl: bad, courseUrl: 'https://c.example' });
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.fieldErrors.donationUrl).toBe(linkMessage('Donation link'));
    }
    const good = parse('links', {
      donationUrl: 'https://donate.example.org/give?x=1',
      courseUrl: 'https://c.example',
      socialX: '',
    });
    expect(good.ok).toBe(true);
    const missing = parse('links', { donationUrl: '', courseUrl: 'https://c.example' });
    expect(!missing.ok && missing.fieldErrors.donationUrl).toBe('Donation link is required');
  });

  it('checks the email and the phone as ORG_EMAIL and ORG_PHONE are checked', () => {
    const base = { orgName: 'TDG', orgLocation: 'Mukono' };
    const bad = parse('organisation', { ...base, orgEmail: 'not-an-email', orgPhone: '12' });
    expect(!bad.ok && bad.fieldErrors).toEqual({ orgEmail: SETTINGS_MESSAGES.email, orgPhone: SETTINGS_MESSAGES.phone });
    // The same phone numbers pass or fail here as in the environment.
    for (const phone of [
      '+256 700 123 456',
      '(0414) 123-456',
      '0700123456',
      '12345',
      '+256 700 123 456 789 012',
      'call us',
      '+256-700-ABC',
    ]) {
      const here = parse('organisation', { ...base, orgEmail: 'a@b.org', orgPhone: phone }).ok;
      let there = true;
      try {
        loadConfig({ ORG_PHONE: phone });
      } catch {
        there = false;
      }
      expect(here, phone).toBe(there);
    }
  });

  it('takes whole numbers from 0 to 1,000,000, short suffixes and labels', () => {
    const stats = (n: string, suffix = '+', label = 'Lives') => ({
      stat1Number: n,
      stat1Suffix: suffix,
      stat1Label: label,
      stat2Number: '1',
      stat2Label: 'b',
      stat3Number: '0',
      stat3Label: 'c',
      stat4Number: '1000000',
      stat4Label: 'd',
    });
    const good = parse('stats', stats('750'));
    expect(good.ok && good.values.stat1Number).toBe(750);
    for (const n of ['-1', '1.5', '1000001', '1,000', 'ten', '']) {
      const result = parse('stats', stats(n));
      expect(!result.ok && result.fieldErrors.stat1Number, n).toBe(
        n === '' ? 'Stat 1 number is required' : numberMessage('Stat 1 number'),
      );
    }
    const long = parse('stats', stats('5', '+++%', 'x'.repeat(41)));
    expect(!long.ok && long.fieldErrors).toEqual({
      stat1Suffix: tooLongMessage('Stat 1 suffix', 3),
      stat1Label: tooLongMessage('Stat 1 label', 40),
    });
  });

  it('bounds the texts and asks for both halves of a value', () => {
    const home = parse('home', {
      heroHeadline: 'x'.repeat(121),
      heroText: 'y'.repeat(601),
      missionHeading: 'M',
      missionText: '',
    });
    expect(!home.ok && home.fieldErrors).toEqual({
      heroHeadline: tooLongMessage('Headline', 120),
      heroText: tooLongMessage('Text under the headline', 600),
      missionText: 'Mission text is required',
    });
    const about = parse('about', { aboutMission: 'M', aboutVision: 'V', value1Name: '', value1Text: 'No name' });
    expect(!about.ok && about.fieldErrors).toEqual({ value1Name: valueNameMissing(1) });
    const rich = parse('privacy', { privacyText: `<p>${'a'.repeat(20_001)}</p>` });
    expect(!rich.ok && rich.fieldErrors.privacyText).toBe(tooLongMessage('Privacy Policy text', 20_000));
    expect(parse('privacy', { privacyText: `<p>${'a'.repeat(20_000)}</p>` }).ok).toBe(true);
    const empty = parse('terms', { termsText: '<p> </p>' });
    expect(!empty.ok && empty.fieldErrors.termsText).toBe('Terms of Service text is required');
  });

  it('takes a story link as a path or a whole address, and nothing else', () => {
    const founder = (link: string) =>
      parse('founder', { founderName: 'A', founderStory: 'S', founderProfile: 'P', founderStoryLink: link });
    const pasted = founder('https://tdg.example/blog/my-story?ref=1#top');
    expect(pasted.ok && pasted.values.founderStoryLink).toBe('/blog/my-story');
    expect(founder('/news/a-b_c/').ok).toBe(true);
    for (const bad of ['/contact', 'javascript:alert(1)', '//evil.example/blog/x', '/blog/a b', 'blog/x']) {
      const result = founder(bad);
      expect(!result.ok && result.fieldErrors.founderStoryLink, bad).toBe(SETTINGS_MESSAGES.storyLink);
    }
  });

  it('refuses a megabyte in every field with that field’s message, quickly', () => {
    const huge = `${'\n \t'.repeat(200_000)}x${'a'.repeat(400_000)}`;
    for (const group of GROUP_IDS) {
      const started = performance.now();
      const fields = Object.fromEntries(GROUP_SPECS[group].fields.map((field) => [field, huge]));
      const result = parse(group, fields);
      expect(result.ok, group).toBe(false);
      if (!result.ok) for (const field of GROUP_SPECS[group].fields) expect(result.fieldErrors[field], field).toBeTruthy();
      expect(performance.now() - started, group).toBeLessThan(2_000);
    }
  });

  it("keeps the built-in policy texts as the stories' sanitiser keeps them", () => {
    for (const html of [defaultPrivacyHtml('info@tdg-uganda.example'), DEFAULT_TERMS_HTML, DEFAULT_ACCESSIBILITY_HTML])
      expect(sanitizeArticleHtml(html)).toBe(html);
  });
});

describe.each(ENGINES)('site settings on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  const db = () => database().db;
  const actors = {} as Record<'SUPER_ADMIN' | 'ADMIN' | 'EDITOR', StaffUser>;
  let png: Buffer;

  async function addStaff(role: Role, email: string, extra: Record<string, string> = {}) {
    const at = nowIso();
    await db()
      .insertInto('system_users')
      .values({
        id: newId(),
        name: `${role} person`,
        email,
        role,
        bio: '',
        password_hash: null,
        created_at: at,
        updated_at: at,
        updated_by: null,
        last_login: null,
        ...extra,
      })
      .execute();
    return staffUserByEmail(db(), email);
  }

  const audits = () =>
    db()
      .selectFrom('audit_log')
      .select(['actor_email', 'target', 'detail', 'ip'])
      .where('action', '=', 'settings.updated')
      .orderBy('at')
      .execute();
  const storedKeys = async () =>
    (await db().selectFrom('settings').select('key').where('key', 'like', 'site.%').orderBy('key').execute()).map((r) => r.key);
  /** Saves a group as its form would post it: every field, as shown now, with `changes`. */
  async function saveAs(actor: StaffUser, group: SettingGroup, changes: Record<string, string>, version?: string) {
    const view = (await loadSettingsView(actor)).find((g) => g.id === group)!;
    const checked = checkFormSync(groupSchema(group), { ...view.values, ...changes });
    if (!checked.ok) throw new Error(JSON.stringify(checked.fieldErrors));
    return saveSiteSettings(actor, group, checked.values, { version: version ?? view.version, ip: IP });
  }

  beforeAll(async () => {
    actors.SUPER_ADMIN = await addStaff('SUPER_ADMIN', 'boss@example.org');
    actors.ADMIN = await addStaff('ADMIN', 'admin@example.org');
    actors.EDITOR = await addStaff('EDITOR', 'editor@example.org');
    png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#4338ca' } })
      .png()
      .toBuffer();
  });

  beforeEach(async () => {
    await db().deleteFrom('settings').execute();
    await db().deleteFrom('audit_log').execute();
  });

  it("shows the environment's values and today's words while nothing is stored", async () => {
    const site = await getSiteInfo(db());
    expect(site).toMatchObject({
      name: 'TDG Uganda Test',
      email: 'info@tdg-uganda.example',
      phone: '+256 700 123 456',
      location: 'Mukono, Central Region, Uganda',
      donationUrl: 'https://donate.test.example/give',
      courseBanner: 'New Course Available: Deaf / Hard of Hearing Awareness Training',
      description: TEXT_DEFAULTS.footerDescription,
    });
    const home = await getHomeTexts(db());
    expect(home.heroHeadline).toBe('Raising disability awareness through education and storytelling');
    expect(home.stats.map((s) => `${s.number}${s.suffix} ${s.label}`)).toEqual([
      '500+ Lives Impacted',
      '50+ Workshops Conducted',
      '25+ Partner Organizations',
      '100% Commitment to Change',
    ]);
    const about = await getAboutTexts(db());
    expect(about.values.map((v) => v.name)).toEqual([
      'Nothing about us without us',
      'Dignity',
      'Access for everyone',
      'Practical change',
      'Community',
      'Honesty',
    ]);
    expect(await getLegalPage('privacy', db())).toEqual({
      html: defaultPrivacyHtml('info@tdg-uganda.example'),
      updated: LEGAL_DEFAULT_UPDATED,
    });
    expect(await getOutgoingLink('donationUrl', db())).toBe('https://donate.test.example/give');
  });

  it('lets an Admin change texts and figures: shown at once, audited with old and new, only what changed stored', async () => {
    const saved = await saveAs(actors.ADMIN, 'home', { heroHeadline: 'Every voice counts', missionText: 'One.\r\n\r\nTwo.' });
    expect(saved.changed).toEqual(['heroHeadline', 'missionText']);
    await saveAs(actors.ADMIN, 'stats', { stat2Number: '64', stat2Suffix: '' });
    const home = await getHomeTexts(db());
    expect(home.heroHeadline).toBe('Every voice counts');
    expect(home.missionText).toBe('One.\n\nTwo.');
    expect(home.heroText).toBe(TEXT_DEFAULTS.heroText);
    expect(home.stats[1]).toEqual({ number: 64, suffix: '', label: 'Workshops Conducted' });
    expect(await storedKeys()).toEqual(['site.heroHeadline', 'site.missionText', 'site.stat2Number', 'site.stat2Suffix']);

    const [first, second] = await audits();
    expect(first).toMatchObject({ actor_email: 'admin@example.org', target: 'Home page', ip: IP });
    expect(JSON.parse(first!.detail)).toEqual({
      Headline: { from: 'Raising disability awareness through education and storytelling', to: 'Every voice counts' },
      'Mission text': { from: TEXT_DEFAULTS.missionText, to: 'One.\n\nTwo.' },
    });
    expect(JSON.parse(second!.detail)).toEqual({
      'Stat 2 number': { from: '50', to: '64' },
      'Stat 2 suffix': { from: '+', to: '(empty)' },
    });

    // Saving the same again changes nothing and writes no audit entry.
    expect((await saveAs(actors.ADMIN, 'stats', {})).changed).toEqual([]);
    expect(await audits()).toHaveLength(2);

    // Set back to today's words, a field stops being stored and follows its default again.
    await saveAs(actors.ADMIN, 'home', { heroHeadline: TEXT_DEFAULTS.heroHeadline });
    expect(await storedKeys()).toEqual(['site.missionText', 'site.stat2Number', 'site.stat2Suffix']);
  });

  it('refuses contact details and links to anyone but the Super Admin, changing nothing', async () => {
    for (const role of ['ADMIN', 'EDITOR'] as const) {
      for (const group of ['organisation', 'links'] as const) {
        const attempt = saveSiteSettings(
          actors[role],
          group,
          { donationUrl: 'https://evil.example/give', orgPhone: '+256 799 000 000' },
          { ip: IP },
        );
        await expect(attempt).rejects.toMatchObject({ status: 403, message: SETTINGS_MESSAGES.linksForbidden });
      }
    }
    // An Editor may change no setting at all.
    await expect(saveSiteSettings(actors.EDITOR, 'home', { heroHeadline: 'Mine' }, { ip: IP })).rejects.toMatchObject({
      status: 403,
    });
    expect(await storedKeys()).toEqual([]);
    expect(await audits()).toEqual([]);
    expect((await getSiteInfo(db())).donationUrl).toBe('https://donate.test.example/give');

    const views = await loadSettingsView(actors.ADMIN);
    expect(views.filter((g) => !g.editable).map((g) => g.id)).toEqual(['organisation', 'links', 'languages']);
    expect(views.map((g) => g.id)).toEqual(GROUP_IDS);
  });

  it('lets the Super Admin change the phone and the donation link; the rest keeps following the environment', async () => {
    await saveAs(actors.SUPER_ADMIN, 'organisation', { orgPhone: '+256 772 000 111' });
    await saveAs(actors.SUPER_ADMIN, 'links', { donationUrl: 'https://give.example.org/tdg', socialYoutube: '' });
    const site = await getSiteInfo(db());
    expect(site.phone).toBe('+256 772 000 111');
    expect(site.donationUrl).toBe('https://give.example.org/tdg');
    expect(site.social.youtube).toBe('');
    expect(site.name).toBe('TDG Uganda Test');
    expect(await storedKeys()).toEqual(['site.donationUrl', 'site.orgPhone', 'site.socialYoutube']);
    expect(await getOutgoingLink('donationUrl', db())).toBe('https://give.example.org/tdg');
    const detail = JSON.parse((await audits())[1]!.detail) as Record<string, unknown>;
    expect(detail['Donation link']).toEqual({ from: 'https://donate.test.example/give', to: 'https://give.example.org/tdg' });

    // The privacy text's default names the email of the moment.
    await saveAs(actors.SUPER_ADMIN, 'organisation', { orgEmail: 'hello@tdg.example' });
    expect((await getLegalPage('privacy', db())).html).toContain('<a href="mailto:hello@tdg.example">hello@tdg.example</a>');
    expect((await getSiteInfo(db())).email).toBe('hello@tdg.example');
  });

  it('sanitises rich texts as stories are, and audits their length, not their words', async () => {
    const html =
      '<h2>Our promise</h2><p>We keep <strong>little</strong>.<script>alert(1)</script> <a href="javascript:alert(1)">x</a></p>';
    await saveAs(actors.ADMIN, 'privacy', { privacyText: html });
    const page = await getLegalPage('privacy', db());
    expect(page.html).toBe('<h2>Our promise</h2><p>We keep <strong>little</strong>. <a>x</a></p>');
    expect(page.updated).toBe(
      new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date()),
    );
    const detail = JSON.parse((await audits())[0]!.detail) as Record<string, { from: string; to: string }>;
    expect(detail['Privacy Policy text']!.to).toBe(`${textLength(page.html)} characters`);
    expect(detail['Privacy Policy text']!.from).toMatch(/^\d{3},?\d* characters$/);
    expect(JSON.stringify(detail)).not.toContain('promise');

    // Nothing readable left once sanitised: still required.
    const empty = saveSiteSettings(actors.ADMIN, 'terms', { termsText: '<script>alert(1)</script>' }, { ip: IP });
    await expect(empty).rejects.toMatchObject({ status: 400, field: 'termsText', message: 'Terms of Service text is required' });
  });

  it('tells a save from an older page that someone else saved first', async () => {
    const before = (await loadSettingsView(actors.ADMIN)).find((g) => g.id === 'about')!.version;
    await saveAs(actors.SUPER_ADMIN, 'about', { aboutVision: 'A new vision.' });
    const late = saveAs(actors.ADMIN, 'about', { aboutMission: 'A new mission.' }, before);
    await expect(late).rejects.toBeInstanceOf(SettingsConflictError);
    await expect(late).rejects.toMatchObject({ status: 409 });
    expect((await getAboutTexts(db())).mission).toBe(TEXT_DEFAULTS.aboutMission);
    // Values with an empty name and text are left out; a new one shows.
    await saveAs(actors.ADMIN, 'about', { value2Name: '', value2Text: '', value8Name: 'Joy', value8Text: 'We celebrate.' });
    expect((await getAboutTexts(db())).values.map((v) => v.name)).toEqual([
      'Nothing about us without us',
      'Access for everyone',
      'Practical change',
      'Community',
      'Honesty',
      'Joy',
    ]);
  });

  describe('the founder', () => {
    const story = (id: string, category: string, at: string, email = 'ruth@example.org') => ({
      id,
      collection: 'blogs' as const,
      title: id,
      summary: null,
      excerpt: 'x',
      content: '<p>x</p>',
      category,
      author: 'Ruth Akello',
      author_email: email,
      created_at: at,
      published_at: at,
      updated_at: at,
    });

    beforeAll(async () => {
      await addStaff('AUTHOR', 'ruth@example.org', {
        name: 'Ruth Akello',
        title: 'Founder',
        bio: 'Short bio.',
        full_bio: 'A longer biography of Ruth.',
        social_links: JSON.stringify({ twitter: 'https://x.example/ruth' }),
      });
      await db()
        .insertInto('content')
        .values([
          story('ruths-story', 'personal-experience', '2026-02-01T00:00:00.000Z'),
          story('another-piece', 'advocacy', '2026-03-01T00:00:00.000Z'),
        ])
        .execute();
    });

    it("follows the founder's account field by field until staff change a field", async () => {
      await writeSetting(db(), SETTING_KEYS.founderEmail, 'ruth@example.org');
      await saveAs(actors.ADMIN, 'founder', { founderTitle: 'Founder & Director', founderStory: 'Ruth grew up in Jinja.' });
      const founder = await getFounderProfile(db());
      expect(founder).toEqual({
        name: 'Ruth Akello',
        email: 'ruth@example.org',
        title: 'Founder & Director',
        bio: 'Ruth grew up in Jinja.',
        fullBio: 'A longer biography of Ruth.',
        pictureUrl: null,
        social: { twitter: 'https://x.example/ruth' },
        storyLink: null,
      });
      expect(await findFounderStoryPath(founder, db())).toBe('/blog/ruths-story');
    });

    it('leads "Read the story" to a chosen story while it exists', async () => {
      await writeSetting(db(), SETTING_KEYS.founderEmail, 'ruth@example.org');
      await saveAs(actors.ADMIN, 'founder', { founderStoryLink: 'https://site.example/blog/another-piece' });
      const founder = await getFounderProfile(db());
      expect(founder.storyLink).toBe('/blog/another-piece');
      expect(await findFounderStoryPath(founder, db())).toBe('/blog/another-piece');

      const missing = saveAs(actors.ADMIN, 'founder', { founderStoryLink: '/blog/no-such-story' });
      await expect(missing).rejects.toMatchObject({
        status: 400,
        field: 'founderStoryLink',
        message: SETTINGS_MESSAGES.storyMissing,
      });

      // The chosen story deleted later: back to the founder's own newest story.
      await db().deleteFrom('content').where('id', '=', 'another-piece').execute();
      expect(await findFounderStoryPath(await getFounderProfile(db()), db())).toBe('/blog/ruths-story');
    });

    it('keeps the photo it shows, takes only stored uploads, and removes a replaced one', async () => {
      const upload = async (name: string) =>
        (await storeImage(db(), { folder: 'site', originalName: `${name}.png`, bytes: png, uploadedBy: 'admin@example.org' }))
          .url;
      const filesOf = (name: string) => {
        const dir = path.join(database().dataDir, 'uploads', 'site');
        return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.includes(`_${name}`)) : [];
      };
      const first = await upload('first_photo');
      await saveAs(actors.ADMIN, 'founder', { founderPhoto: first });
      expect((await getFounderProfile(db())).pictureUrl).toBe(first);

      // Two days on, pruning abandoned uploads leaves the photo a setting shows.
      const old = new Date(Date.now() - 2 * ABANDONED_AFTER_MS).toISOString();
      await db().updateTable('media').set({ created_at: old }).execute();
      expect(await pruneUnusedUploads()).toBe(0);
      expect(filesOf('first_photo').length).toBeGreaterThan(0);

      const forged = saveAs(actors.ADMIN, 'founder', { founderPhoto: '/media/site/1_never_uploaded.webp' });
      await expect(forged).rejects.toMatchObject({ status: 400, field: 'founderPhoto' });

      const second = await upload('second_photo');
      await saveAs(actors.ADMIN, 'founder', { founderPhoto: second });
      expect(filesOf('first_photo')).toEqual([]);
      expect(filesOf('second_photo').length).toBeGreaterThan(0);
      expect(
        await db().selectFrom('settings').select('value').where('key', '=', settingKey('founderPhoto')).executeTakeFirst(),
      ).toEqual({
        value: JSON.stringify(second),
      });

      // Removing the photo shows the initial again, and the file goes.
      await saveAs(actors.ADMIN, 'founder', { founderPhoto: '' });
      expect((await getFounderProfile(db())).pictureUrl).toBeNull();
      expect(filesOf('second_photo')).toEqual([]);
    });
  });

  it('answers a rule error for every refusal, never a crash', async () => {
    const attempt = saveSiteSettings(actors.ADMIN, 'links', {}, { ip: IP });
    await expect(attempt).rejects.toBeInstanceOf(RuleError);
  });
});
