import { describe, expect, it } from 'vitest';
import { apiVersionOf, capabilitiesOf, versionText } from '../../../renderer/lib/capabilities.ts';
import { chatCapabilities, workspaceVersionOf } from '../../../renderer/store/capabilities.ts';
import { chat } from './fixtures.ts';

describe('what a workspace can do, from its API version', () => {
  it('a V2 workspace has none of replies, effects, the service choice, any-emoji reactions, the edit window or standing', () => {
    expect(capabilitiesOf('v2')).toEqual({
      version: 'v2',
      replies: false,
      effects: false,
      serviceChoice: false,
      customReactions: false,
      editWindow: false,
      standing: false,
    });
  });

  it('a V3 workspace has them all', () => {
    const v3 = capabilitiesOf('v3');
    expect(v3.version).toBe('v3');
    expect(Object.entries(v3).filter(([, can]) => can === false)).toEqual([]);
  });

  it('is the same object for the same version, so a selector of it re-renders nothing', () => {
    expect(capabilitiesOf('v3')).toBe(capabilitiesOf('v3'));
    expect(capabilitiesOf('v2')).toBe(capabilitiesOf('v2'));
    expect(capabilitiesOf('v2')).not.toBe(capabilitiesOf('v3'));
  });

  it('a chat from V3 or a V3 workspace is V3; anything else is V2', () => {
    expect(apiVersionOf(chat({ apiVersion: 'v3' }))).toBe('v3');
    expect(apiVersionOf(chat(), { apiVersion: 'v3' })).toBe('v3');
    expect(apiVersionOf(chat())).toBe('v2');
    expect(versionText('v3')).toBe('V3');
    expect(versionText('v2')).toBe('V2');
  });
});

describe('the store’s selectors', () => {
  const workspace = (id: string, apiVersion?: 'v2' | 'v3') => ({ id, apiVersion }) as never;

  it('read the active workspace’s version, V2 when it says none', () => {
    const workspaces = [workspace('a', 'v3'), workspace('b')];
    expect(workspaceVersionOf({ workspaces, activeWorkspaceId: 'a' })).toBe('v3');
    expect(workspaceVersionOf({ workspaces, activeWorkspaceId: 'b' })).toBe('v2');
    expect(workspaceVersionOf({ workspaces, activeWorkspaceId: null })).toBe('v2');
  });

  it('give a chat its workspace’s capabilities, or V3’s for a chat that came from V3', () => {
    const chatsById = { 1: chat({ id: 1 }), 2: chat({ id: 2, apiVersion: 'v3' }) };
    const onV2 = { workspaces: [workspace('a', 'v2')], activeWorkspaceId: 'a', chatsById };
    const onV3 = { workspaces: [workspace('a', 'v3')], activeWorkspaceId: 'a', chatsById };
    expect(chatCapabilities(1)(onV2)).toBe(capabilitiesOf('v2'));
    expect(chatCapabilities(2)(onV2)).toBe(capabilitiesOf('v3'));
    expect(chatCapabilities(1)(onV3)).toBe(capabilitiesOf('v3'));
    // A chat not loaded yet (a new conversation) has its workspace's.
    expect(chatCapabilities(99)(onV3)).toBe(capabilitiesOf('v3'));
  });
});
