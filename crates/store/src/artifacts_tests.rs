#![allow(clippy::unwrap_used)]

use super::*;
use crate::test_support::TempStore;

fn chunk(sequence: u64, start: u64, bytes: u64) -> ArtifactChunk {
    ArtifactChunk {
        sequence,
        start,
        bytes,
        sha256: format!("h{sequence}"),
    }
}

#[test]
fn chunks_are_recorded_in_order_and_a_final_artifact_takes_no_more() {
    let t = TempStore::new();
    let store = &t.store;
    let made = store
        .create_artifact("art_1", "desktop:a", "r.md", "Report")
        .unwrap();
    assert_eq!(
        (made.state, made.bytes, made.chunks),
        (ArtifactState::Open, 0, 0)
    );
    let after = store
        .record_artifact_chunk("art_1", &chunk(0, 0, 5))
        .unwrap();
    assert_eq!((after.bytes, after.chunks), (5, 1));
    assert_eq!(
        store.artifact_chunk("art_1", 0).unwrap(),
        Some(chunk(0, 0, 5))
    );
    assert_eq!(store.artifact_chunk("art_1", 1).unwrap(), None);
    // A stale writer (wrong sequence or offset) is refused.
    for stale in [chunk(0, 0, 3), chunk(1, 0, 3), chunk(2, 5, 3)] {
        let error = store.record_artifact_chunk("art_1", &stale).unwrap_err();
        assert!(
            matches!(
                error,
                StoreError::Invalid {
                    field: "sequence",
                    ..
                }
            ),
            "{error}"
        );
    }
    let done = store.finalize_artifact("art_1").unwrap().unwrap();
    assert_eq!(done.state, ArtifactState::Final);
    assert!(done.finalized_at.is_some());
    assert_eq!(store.finalize_artifact("art_1").unwrap(), None);
    assert!(store
        .record_artifact_chunk("art_1", &chunk(1, 5, 1))
        .is_err());
}

#[test]
fn artifacts_list_per_session() {
    let t = TempStore::new();
    let store = &t.store;
    store.create_artifact("art_a", "s1", "a.md", "").unwrap();
    store.create_artifact("art_b", "s2", "b.md", "").unwrap();
    let ids = |session| {
        store
            .list_artifacts(session)
            .unwrap()
            .into_iter()
            .map(|a| a.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(Some("s1")), ["art_a"]);
    assert_eq!(ids(None).len(), 2);
    assert!(ids(Some("s3")).is_empty());
}
