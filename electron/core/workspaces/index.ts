/** Workspaces: the services the user is connected to, and the built-in demo. */
export {
  openWorkspaceRegistry,
  WORKSPACES_FILE,
  WorkspaceRegistry,
  type AddWorkspaceInput,
  type ApiVersionsAvailable,
  type ConnectionProbe,
  type DemoSandboxPort,
  type VersionCheck,
  type WorkspaceEvent,
  type WorkspaceRegistryOptions,
} from './registry.ts';
export {
  DEFAULT_TOKEN_HEADER,
  isLoopbackHost,
  WorkspaceError,
  WorkspaceInputError,
  WorkspaceNotFoundError,
  WorkspaceTokenMissingError,
  type DemoWorkspace,
  type RemoteWorkspace,
  type Workspace,
  type WorkspaceConnection,
} from './workspace.ts';
export { probeWorkspaceVersions } from './version-probe.ts';
