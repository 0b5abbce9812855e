/** Workspaces: the services the user is connected to, and the built-in demo. */
export { openWorkspaceRegistry, WorkspaceRegistry } from './registry.ts';
export type {
  AddWorkspaceInput,
  ApiVersionsAvailable,
  ConnectionProbe,
  DemoSandboxPort,
  VersionCheck,
  WorkspaceEvent,
  WorkspaceRegistryOptions,
} from './registry-types.ts';
export {
  WorkspaceInputError,
  WorkspaceNotFoundError,
  type DemoWorkspace,
  type RemoteWorkspace,
  type Workspace,
  type WorkspaceConnection,
} from './workspace.ts';
export { probeWorkspaceVersions } from './version-probe.ts';
