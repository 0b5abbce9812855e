/**
 * An agent id, a send key: one subject token each (no dots, no wildcards, nothing empty). A leaf,
 * so that the relay's subjects and the team's subjects both use it without naming each other.
 */
export const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
