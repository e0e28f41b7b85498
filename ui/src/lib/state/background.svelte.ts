// The sidebar's background tasks: loaded from the store at start, then kept current by every
// `subagent://progress` event (see main.ts).
import { api } from '../api';
import { fromRun, withProgress, type BackgroundTask } from '../background';
import type { SubAgentProgress } from '../bindings/SubAgentProgress';

class BackgroundTasks {
  tasks = $state<BackgroundTask[]>([]);

  async load(): Promise<void> {
    try {
      this.tasks = (await api.listBackgroundTasks()).map(fromRun);
    } catch (e) {
      console.warn('background tasks not listed', e);
    }
  }

  apply(progress: SubAgentProgress): void {
    this.tasks = withProgress(this.tasks, progress);
  }
}

export const backgroundTasks = new BackgroundTasks();
