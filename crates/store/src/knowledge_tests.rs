#![allow(clippy::unwrap_used)]

use super::*;
use crate::test_support::TempStore;

fn stamp(path: &str) -> FileStamp {
    FileStamp {
        folder: "/k".into(),
        path: path.into(),
        size: 10,
        mtime: 1,
        sha256: "h".into(),
    }
}

fn chunk(unit: &str, first: u64, text: &str) -> KnowledgeChunk {
    KnowledgeChunk {
        unit: unit.into(),
        first,
        last: first,
        label: None,
        text: text.into(),
    }
}

fn paths(hits: &[KnowledgeHit]) -> Vec<(String, u64)> {
    hits.iter()
        .map(|h| (h.path.clone(), h.chunk.first))
        .collect()
}

#[test]
fn chinese_queries_of_one_two_and_four_characters_and_english_words_find_their_chunks() {
    let t = TempStore::new();
    let store = &t.store;
    store
        .index_knowledge_file(
            &stamp("/k/a.pdf"),
            &[
                chunk("page", 1, "今天天气很好，我们去公园散步。"),
                chunk("page", 2, "机器学习是人工智能的一个分支。"),
            ],
            None,
        )
        .unwrap();
    store
        .index_knowledge_file(
            &stamp("/k/b.md"),
            &[chunk(
                "line",
                1,
                "Quarterly revenue grew by twelve percent.",
            )],
            None,
        )
        .unwrap();
    let find = |q: &str| paths(&store.search_knowledge(q, 5).unwrap());
    assert_eq!(find("园"), [("/k/a.pdf".to_string(), 1)]);
    assert_eq!(find("分支"), [("/k/a.pdf".to_string(), 2)]);
    assert_eq!(find("机器学习"), [("/k/a.pdf".to_string(), 2)]);
    assert_eq!(find("revenue"), [("/k/b.md".to_string(), 1)]);
    assert_eq!(find("Reven"), [("/k/b.md".to_string(), 1)]);
    assert!(find("absent").is_empty());
}

#[test]
fn reindexing_replaces_and_removing_forgets_a_files_chunks() {
    let t = TempStore::new();
    let store = &t.store;
    store
        .index_knowledge_file(&stamp("/k/a.md"), &[chunk("line", 1, "alpha")], None)
        .unwrap();
    store
        .index_knowledge_file(&stamp("/k/a.md"), &[chunk("line", 3, "beta")], None)
        .unwrap();
    assert!(store.search_knowledge("alpha", 5).unwrap().is_empty());
    assert_eq!(paths(&store.search_knowledge("beta", 5).unwrap())[0].1, 3);
    store
        .index_knowledge_file(&stamp("/k/bad.pdf"), &[], Some("damaged"))
        .unwrap();
    let counts = store.knowledge_counts().unwrap();
    assert_eq!((counts.files, counts.chunks, counts.errors), (2, 1, 1));
    store.restamp_knowledge_file("/k/a.md", 20, 5).unwrap();
    let files = store.knowledge_files(Some("/k")).unwrap();
    assert_eq!((files[0].size, files[0].mtime), (20, 5));
    assert!(store.remove_knowledge_file("/k/a.md").unwrap());
    assert!(!store.remove_knowledge_file("/k/a.md").unwrap());
    assert!(store.search_knowledge("beta", 5).unwrap().is_empty());
    assert_eq!(store.knowledge_counts().unwrap().chunks, 0);
}
