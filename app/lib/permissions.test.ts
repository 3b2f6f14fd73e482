import { describe, expect, it } from 'vitest';
import { ROLE_INFO, ROLES, SECTION_GROUPS, sectionGroupsFor, type Section } from './permissions';

// Issue 23: the dashboard's navigation groups every section once and keeps each role to its own.
describe('the dashboard section groups', () => {
  it('hold every section but the overview exactly once', () => {
    const grouped = SECTION_GROUPS.flatMap((group) => group.sections);
    const all = new Set<Section>(ROLES.flatMap((role) => ROLE_INFO[role].sections));
    all.delete('overview');
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(new Set(grouped)).toEqual(all);
  });

  it.each(ROLES)('show %s its own sections, the overview first, and no empty group', (role) => {
    const groups = sectionGroupsFor(role);
    expect(groups[0]).toEqual({ label: null, sections: ['overview'] });
    expect(groups.every((group) => group.sections.length > 0)).toBe(true);
    expect(groups.flatMap((group) => group.sections).sort()).toEqual([...ROLE_INFO[role].sections].sort());
  });

  it('give a viewer the overview alone and an author the content group alone', () => {
    expect(sectionGroupsFor('VIEWER')).toEqual([{ label: null, sections: ['overview'] }]);
    expect(sectionGroupsFor('AUTHOR').map((group) => group.label)).toEqual([null, 'Content']);
  });
});

// Issue 28: the Analytics screen for ADMIN and above (the whole site) and EDITOR (their own items).
describe('the analytics permissions', () => {
  it.each(ROLES)('give %s the screen and the whole site as spec’d', (role) => {
    const screen = ['SUPER_ADMIN', 'ADMIN', 'EDITOR'].includes(role);
    const site = ['SUPER_ADMIN', 'ADMIN'].includes(role);
    expect(ROLE_INFO[role].sections.includes('analytics')).toBe(screen);
    expect(ROLE_INFO[role].permissions.includes('analytics:view')).toBe(screen);
    expect(ROLE_INFO[role].permissions.includes('analytics:all')).toBe(site);
  });
});

// Issue 26 item 3: the Translations screen, for the roles that change the site's texts.
describe('the translations permission', () => {
  it.each(ROLES)('gives %s the screen only with the site texts', (role) => {
    const may = ['SUPER_ADMIN', 'ADMIN'].includes(role);
    expect(ROLE_INFO[role].sections.includes('translations')).toBe(may);
    expect(ROLE_INFO[role].permissions.includes('translations:edit')).toBe(may);
    expect(ROLE_INFO[role].permissions.includes('settings:texts')).toBe(may);
  });
});
