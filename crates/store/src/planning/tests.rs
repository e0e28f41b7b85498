#![allow(clippy::unwrap_used)]

use hearth_protocol::{TodoItem, TodoList, TodoStatus};

use super::*;
use crate::test_support::TempStore;

fn item(id: &str, status: TodoStatus) -> TodoItem {
    TodoItem {
        id: id.into(),
        title: format!("step {id}"),
        status,
        notes: None,
    }
}

fn with_items(current: Option<TodoList>, items: Vec<TodoItem>) -> TodoList {
    let next_id = current.as_ref().map_or(1, |l| l.next_id) + items.len() as u32;
    TodoList {
        session_id: String::new(),
        revision: 0,
        items,
        next_id,
        updated_at: 0,
    }
}

#[test]
fn a_checklist_counts_its_revisions_and_survives_a_restart() {
    let temp = TempStore::new();
    assert_eq!(temp.store.todo_list("desktop:a").unwrap(), None);
    let first = temp
        .store
        .change_todo_list::<StoreError>("desktop:a", |current| {
            Ok(with_items(current, vec![item("1", TodoStatus::Pending)]))
        })
        .unwrap();
    assert_eq!((first.revision, first.next_id), (1, 2));
    let second = temp
        .store
        .change_todo_list::<StoreError>("desktop:a", |current| {
            assert_eq!(current.unwrap().revision, 1);
            Ok(with_items(None, vec![item("1", TodoStatus::Done)]))
        })
        .unwrap();
    assert_eq!(second.revision, 2);

    let temp = temp.reopen();
    let stored = temp.store.todo_list("desktop:a").unwrap().unwrap();
    assert_eq!(stored, second);
    assert!(!stored.has_open_items());
    assert_eq!(temp.store.todo_list("desktop:b").unwrap(), None);
}

#[test]
fn a_failed_change_writes_nothing() {
    let temp = TempStore::new();
    let refused = temp
        .store
        .change_todo_list("desktop:a", |_| -> Result<TodoList> {
            Err(StoreError::not_found("item", 9))
        });
    assert!(refused.is_err());
    assert_eq!(temp.store.todo_list("desktop:a").unwrap(), None);

    let task = temp.store.insert_plan_task(&new_task("t", 0)).unwrap();
    let refused = temp.store.change_plan_task(task.id, |mut t| {
        t.status = TaskStatus::Running;
        Err::<PlanTask, _>(StoreError::not_found("x", 1))
    });
    assert!(refused.is_err());
    assert_eq!(
        temp.store.plan_task(task.id).unwrap().unwrap().status,
        TaskStatus::Pending
    );
    let missing = temp
        .store
        .change_plan_task::<StoreError>(999, Ok)
        .unwrap_err();
    assert!(
        matches!(missing, StoreError::NotFound { what: "task", .. }),
        "{missing}"
    );
}

#[test]
fn a_checklist_goes_with_its_session() {
    let temp = TempStore::new();
    temp.session("desktop:a");
    temp.store
        .change_todo_list::<StoreError>("desktop:a", |c| {
            Ok(with_items(c, vec![item("1", TodoStatus::Pending)]))
        })
        .unwrap();
    temp.store.delete_session("desktop:a").unwrap();
    assert_eq!(temp.store.todo_list("desktop:a").unwrap(), None);
}

fn new_task(title: &str, priority: i64) -> NewPlanTask {
    NewPlanTask {
        session_id: "desktop:a".into(),
        title: title.into(),
        description: None,
        priority,
        workflow_id: None,
    }
}

#[test]
fn tasks_and_workflows_are_listed_by_status_and_survive_a_restart() {
    let temp = TempStore::new();
    let low = temp.store.insert_plan_task(&new_task("low", 1)).unwrap();
    let high = temp.store.insert_plan_task(&new_task("high", 5)).unwrap();
    assert_eq!((low.status, low.attempts), (TaskStatus::Pending, 0));
    temp.store
        .change_plan_task::<StoreError>(low.id, |mut t| {
            t.status = TaskStatus::Running;
            t.attempts += 1;
            Ok(t)
        })
        .unwrap();
    let workflow = temp
        .store
        .insert_workflow(&NewWorkflow {
            session_id: "desktop:a".into(),
            name: "release".into(),
            description: Some("ship it".into()),
            steps: vec![WorkflowStep {
                id: "build".into(),
                title: "Build".into(),
                depends_on: Vec::new(),
                done_at: None,
            }],
        })
        .unwrap();
    assert_eq!(workflow.status, WorkflowStatus::Created);

    let temp = temp.reopen();
    let all: Vec<String> = temp
        .store
        .list_plan_tasks(None)
        .unwrap()
        .into_iter()
        .map(|t| t.title)
        .collect();
    assert_eq!(all, ["high", "low"]);
    let running = temp
        .store
        .list_plan_tasks(Some(TaskStatus::Running))
        .unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!((running[0].id, running[0].attempts), (low.id, 1));
    assert_eq!(
        temp.store.plan_task(high.id).unwrap().unwrap().title,
        "high"
    );
    let stored = temp.store.workflow(workflow.id).unwrap().unwrap();
    assert_eq!(stored.steps, workflow.steps);
    assert_eq!(
        temp.store
            .list_workflows(Some(WorkflowStatus::Running))
            .unwrap()
            .len(),
        0
    );
    assert_eq!(temp.store.list_workflows(None).unwrap().len(), 1);
}
