//! `#[command]` for the desktop app's Tauri commands and `contract!` for their list: each command
//! is registered with Tauri off the main thread, and its signature (name, arguments, result,
//! error, doc comment) is recorded for the generated TypeScript contract, so the UI's types come
//! from the function itself and cannot drift from it.
//!
//! The expansion names `crate::contract` (the app's `src-tauri/src/contract`): these macros serve
//! that crate only.

use heck::ToLowerCamelCase;
use proc_macro::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{
    parse_macro_input, FnArg, GenericArgument, ItemFn, Pat, Path, PathArguments, ReturnType, Token,
    Type,
};

/// Arguments Tauri fills in itself (the app's state, handle, window): not part of the contract.
const INJECTED: &[&str] = &["State", "AppHandle", "Window", "WebviewWindow", "Webview"];

/// Marks a Tauri command of the app. It expands to `#[tauri::command]` for an `async fn` and to
/// `#[tauri::command(async)]` for a plain one (Tauri would run a plain command on the main thread,
/// holding the window still), and, in test builds, to a function `__contract_<name>` returning
/// the command's signature for the TypeScript export.
#[proc_macro_attribute]
pub fn command(attribute: TokenStream, item: TokenStream) -> TokenStream {
    if !attribute.is_empty() {
        let message = "#[command] takes no arguments: the contract assumes Tauri's defaults";
        return syn::Error::new(proc_macro2::Span::call_site(), message)
            .to_compile_error()
            .into();
    }
    let function = parse_macro_input!(item as ItemFn);
    match signature(&function) {
        Ok(recorded) => {
            let tauri = if function.sig.asyncness.is_some() {
                quote!(#[::tauri::command])
            } else {
                quote!(#[::tauri::command(async)])
            };
            quote!(#tauri #function #recorded).into()
        }
        Err(error) => error.to_compile_error().into(),
    }
}

/// The signatures of the listed commands (paths to functions marked `#[command]`), as a
/// `Vec<crate::contract::Command>`; the list is the one given to `tauri::generate_handler!`.
#[proc_macro]
pub fn contract(input: TokenStream) -> TokenStream {
    let paths = parse_macro_input!(input with Punctuated::<Path, Token![,]>::parse_terminated);
    let calls = paths.into_iter().map(|mut path| {
        if let Some(last) = path.segments.last_mut() {
            last.ident = format_ident!("__contract_{}", last.ident);
        }
        quote!(#path())
    });
    quote!(::std::vec![#(#calls),*]).into()
}

/// The `__contract_<name>` function recording `function`'s signature.
fn signature(function: &ItemFn) -> syn::Result<proc_macro2::TokenStream> {
    let name = function.sig.ident.to_string();
    let recorder = format_ident!("__contract_{}", function.sig.ident);
    let docs = doc_comment(function);
    let mut args = Vec::new();
    for input in &function.sig.inputs {
        let FnArg::Typed(typed) = input else {
            return Err(syn::Error::new_spanned(input, "a command takes no `self`"));
        };
        let Pat::Ident(ident) = typed.pat.as_ref() else {
            return Err(syn::Error::new_spanned(&typed.pat, "name the argument"));
        };
        let ty = typed.ty.as_ref();
        let last = last_segment(ty);
        let kind = last.map(|segment| segment.ident.to_string());
        if kind.as_deref().is_some_and(|kind| INJECTED.contains(&kind)) {
            continue;
        }
        let key = camel_case(&ident.ident.to_string());
        args.push(
            match (kind.as_deref(), last.and_then(first_type_argument)) {
                (Some("Channel"), Some(message)) => {
                    quote!(crate::contract::Arg::channel::<#message>(#key))
                }
                _ => quote!(crate::contract::Arg::value::<#ty>(#key)),
            },
        );
    }
    let output = match &function.sig.output {
        ReturnType::Default => quote!(crate::contract::Output::value::<()>()),
        ReturnType::Type(_, ty) => {
            let fallible =
                last_segment(ty).is_some_and(|s| s.ident.to_string().ends_with("Result"));
            if fallible {
                quote!(crate::contract::Output::fallible::<#ty>())
            } else {
                quote!(crate::contract::Output::value::<#ty>())
            }
        }
    };
    Ok(quote! {
        #[cfg(test)]
        #[doc(hidden)]
        pub fn #recorder() -> crate::contract::Command {
            crate::contract::Command {
                name: #name,
                docs: #docs,
                args: ::std::vec![#(#args),*],
                output: #output,
            }
        }
    })
}

/// The function's `///` lines, joined.
fn doc_comment(function: &ItemFn) -> String {
    let lines = function.attrs.iter().filter_map(|attribute| {
        let syn::Meta::NameValue(pair) = &attribute.meta else {
            return None;
        };
        if !pair.path.is_ident("doc") {
            return None;
        }
        match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value().trim().to_string()),
            _ => None,
        }
    });
    lines.collect::<Vec<_>>().join(" ")
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(path) => path.path.segments.last(),
        _ => None,
    }
}

fn first_type_argument(segment: &syn::PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(arguments) = &segment.arguments else {
        return None;
    };
    arguments.args.iter().find_map(|argument| match argument {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    })
}

/// An argument's key as Tauri expects it by default (it uses heck too): `session_id` →
/// `sessionId`.
fn camel_case(snake: &str) -> String {
    snake.to_lower_camel_case()
}

#[cfg(test)]
mod tests {
    use super::camel_case;

    /// The keys Tauri's `#[command]` gives arguments by default (heck's lower camel case).
    #[test]
    fn argument_keys_are_camel_case_like_tauris() {
        assert_eq!(camel_case("id"), "id");
        assert_eq!(camel_case("session_id"), "sessionId");
        assert_eq!(camel_case("data_base64"), "dataBase64");
        assert_eq!(camel_case("mcp_servers"), "mcpServers");
        assert_eq!(camel_case("on_event"), "onEvent");
    }
}
