// Which artifact the side panel shows (null: closed).
class ArtifactPanel {
  id = $state<string | null>(null);

  open(id: string): void {
    this.id = id;
  }

  close(): void {
    this.id = null;
  }
}

export const artifactPanel = new ArtifactPanel();
