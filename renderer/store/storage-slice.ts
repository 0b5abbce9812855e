/** Whether the workspace's local store can write (disk full, read-only folder, no permission). */
import type { StateCreator } from 'zustand';
import type { StorageStatus } from '../../shared/contract/errors.ts';
import type { Store } from './index.ts';

export interface StorageSlice {
  storageProblem: StorageStatus['problem'];
  setStorageStatus(status: StorageStatus): void;
}

export const createStorageSlice: StateCreator<Store, [], [], StorageSlice> = (set) => ({
  storageProblem: null,
  setStorageStatus: ({ problem }) => set({ storageProblem: problem }),
});
