//! `hearth-cli mcp resources|read|prompts SERVER`: what one server offers besides tools — its
//! resources and templates, one resource's contents, and its prompts with their arguments.

use std::process::ExitCode;

use hearth_tools::RESOURCE_MAX_CHARS;

use crate::mcp_cmd::start_one;
use crate::pipe::outln;

pub async fn resources(server: &str, json: bool) -> anyhow::Result<ExitCode> {
    let (_home, manager) = start_one(server).await?;
    let listing = manager.resources(Some(server)).await;
    manager.shutdown().await;
    let listing = listing?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&listing)?);
        return Ok(ExitCode::SUCCESS);
    }
    if listing.resources.is_empty() && listing.templates.is_empty() {
        outln!("`{server}` offers no resources");
    }
    for resource in &listing.resources {
        let mime = resource.mime_type.as_deref().unwrap_or("");
        outln!("{}\t{}\t{mime}", resource.uri, resource.name);
    }
    for template in &listing.templates {
        outln!("{}\t{}\t(template)", template.uri_template, template.name);
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn read(server: &str, uri: &str, json: bool) -> anyhow::Result<ExitCode> {
    let (home, manager) = start_one(server).await?;
    let contents = manager
        .read_resource(server, uri, RESOURCE_MAX_CHARS, home.dir.root())
        .await;
    manager.shutdown().await;
    let contents = contents?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&contents)?);
        return Ok(ExitCode::SUCCESS);
    }
    for content in contents {
        match (&content.text, &content.path) {
            (Some(text), _) => {
                outln!("{text}");
                if content.truncated {
                    eprintln!("(cut at {RESOURCE_MAX_CHARS} characters)");
                }
            }
            (None, Some(path)) => outln!(
                "{} bytes of {} saved to {path}",
                content.bytes.unwrap_or(0),
                content.mime_type.as_deref().unwrap_or("binary data")
            ),
            (None, None) => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn prompts(server: &str, json: bool) -> anyhow::Result<ExitCode> {
    let (_home, manager) = start_one(server).await?;
    let prompts = manager.prompts(Some(server)).await;
    manager.shutdown().await;
    let prompts = prompts?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&prompts)?);
        return Ok(ExitCode::SUCCESS);
    }
    if prompts.is_empty() {
        outln!("`{server}` offers no prompts");
    }
    for prompt in prompts {
        let arguments: Vec<String> = prompt
            .arguments
            .iter()
            .map(|a| {
                if a.required {
                    a.name.clone()
                } else {
                    format!("[{}]", a.name)
                }
            })
            .collect();
        outln!(
            "/{}:{} {}\n  {}\n",
            prompt.server,
            prompt.name,
            arguments.join(" "),
            prompt.description.as_deref().unwrap_or("")
        );
    }
    Ok(ExitCode::SUCCESS)
}
