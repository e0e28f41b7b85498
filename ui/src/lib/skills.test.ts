import { describe, expect, it } from 'vitest';
import { chooseSkillFor, completeSkills, guessKind, slashQuery, takeChosenSkill, typedSkill } from './skills';
import { skillItem } from '../../tests/e2e/skillItems';

const skill = (name: string, enabled = true) => skillItem(name, { enabled });

describe('the / picker', () => {
  it('reads the query only while the first word is being typed', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/Rel')).toBe('rel');
    expect(slashQuery('/release notes')).toBeNull();
    expect(slashQuery('hello /x')).toBeNull();
  });

  it('completes enabled skills, prefix matches first', () => {
    const skills = [skill('notes-release'), skill('release-notes'), skill('relay', false), skill('weather')];
    expect(completeSkills(skills, 'rel').map((s) => s.name)).toEqual(['release-notes', 'notes-release']);
    expect(completeSkills(skills, '').map((s) => s.name)).toEqual(['notes-release', 'release-notes', 'weather']);
  });

  it('takes `/name rest` as a skill run only for an enabled skill', () => {
    const skills = [skill('daily-report'), skill('off', false)];
    expect(typedSkill(skills, '/daily-report for Monday')).toEqual({ skill: 'daily-report', rest: 'for Monday' });
    expect(typedSkill(skills, '/daily-report')).toEqual({ skill: 'daily-report', rest: '' });
    expect(typedSkill(skills, '/off now')).toBeNull();
    expect(typedSkill(skills, '/unknown now')).toBeNull();
    expect(typedSkill(skills, 'daily-report')).toBeNull();
  });
});

describe('installing', () => {
  it('guesses the source from what was typed', () => {
    expect(guessKind('https://github.com/a/b.git')).toBe('git');
    expect(guessKind('git@github.com:a/b')).toBe('git');
    expect(guessKind('https://example.com/skill.zip')).toBe('url');
    expect(guessKind('/home/me/skills/x')).toBe('folder');
  });

  it('hands a chosen skill to a new chat once', () => {
    chooseSkillFor('s1', 'weather');
    expect(takeChosenSkill('s1')).toBe('weather');
    expect(takeChosenSkill('s1')).toBeNull();
  });
});
