//! The Value-based writer the typed one (`file_list`) replaced, kept as the reference it must
//! match byte for byte: each file built as a `serde_json::Value`, trimmed and given patches as
//! values, and the result written as the service wrote it (a list that fits spliced after the
//! head, anything else written as one value).

use super::super::*;

/// The result's text and the list the service cached as the listing, as written before.
pub fn shape_text(
    inputs: ResultInputs<'_>,
    again: ResultInputs<'_>,
) -> (String, Option<(String, bool)>) {
    let include_patches = inputs.args.include_patches;
    if !include_patches {
        let files = files_text(inputs.snapshot);
        if let Some(mut text) = listed_open(inputs, files.len(), false) {
            text.push_str(&files);
            text.push('}');
            return (text, Some((files, false)));
        }
    }
    let result = shape_value(again);
    let trimmed = !include_patches && result.get("fileListTrimmed").is_some();
    let listed = result
        .get("files")
        .filter(|_| trimmed)
        .map(|files| (files.to_string(), true));
    (result.to_string(), listed)
}

/// Shapes the tool's result (`structuredContent`), applying the patch caps.
pub fn shape_value(inputs: ResultInputs<'_>) -> Value {
    let mut result = result_head(&inputs);
    let (args, snapshot) = (inputs.args, inputs.snapshot);
    let mut files: Vec<Value> = snapshot.files.iter().map(file_json).collect();
    let budget = file_list_budget(&result, args.include_patches, files.len());
    if trim_file_list(&mut files, budget) {
        result["fileListTrimmed"] = json!(true);
    }
    if args.include_patches {
        let budget = MAX_RESULT_CHARS
            .saturating_sub(json_len(&result) + FILES_FIELD_CHARS + json_len(&json!(files)));
        let truncated = attach_patches(&mut files, &snapshot.files, budget);
        if truncated {
            result["patchesTruncated"] = json!(true);
        }
    }
    result["files"] = Value::Array(files);
    result
}

/// The result's `files` as the service wrote them before: untrimmed, without patches.
pub fn files_text(snapshot: &Snapshot) -> String {
    let files: Vec<Value> = snapshot.files.iter().map(file_json).collect();
    Value::Array(files).to_string()
}

/// Keeps a very large pull request's file list within `budget` characters (the response cap),
/// in this order: without the changes' previews; then without the `changes` of the files whose
/// lists are longest; then without the `dependsOn` of the files whose lists are longest (a Go
/// import depends on every changed file of its package, so these can run to hundreds); then
/// without the longest `testOf`s, until it fits. Every file stays listed with its path, status
/// and, when renamed, `previousPath` (the spec promises it on every renamed file), since an
/// order must name them all; a file that lost its `changes` can still be placed whole. Returns
/// true when anything was taken out. A list whose paths alone pass the cap (thousands of long
/// renamed paths) stays over it: no file may be left out.
pub fn trim_file_list(files: &mut [Value], budget: usize) -> bool {
    let mut size = json_len(&json!(files));
    if size <= budget {
        return false;
    }
    let mut trimmed = false;
    for change in files
        .iter_mut()
        .filter_map(|file| file.get_mut("changes").and_then(Value::as_array_mut))
        .flatten()
    {
        if let Some(preview) = change.as_object_mut().and_then(|c| c.remove("preview")) {
            size = size.saturating_sub(json_len(&preview) + ",\"preview\":".len());
            trimmed = true;
        }
    }
    for field in ["changes", "dependsOn", "testOf"] {
        let mut longest_first: Vec<(usize, usize)> = files
            .iter()
            .enumerate()
            .filter_map(|(index, file)| file.get(field).map(|list| (index, json_len(list))))
            .collect();
        longest_first.sort_by_key(|&(_, length)| std::cmp::Reverse(length));
        for (index, length) in longest_first {
            if size <= budget {
                return trimmed;
            }
            if let Some(file) = files[index].as_object_mut() {
                file.remove(field);
                // `,"field":` goes with the list.
                size = size.saturating_sub(length + field.len() + 4);
                trimmed = true;
            }
        }
    }
    trimmed
}

pub fn file_json(file: &SnapshotFile) -> Value {
    let mut out = json!({
        "path": file.path,
        "status": file.status,
        "additions": file.additions,
        "deletions": file.deletions,
    });
    if let Some(previous) = &file.previous_path {
        out["previousPath"] = json!(previous);
    }
    if !file.depends_on.is_empty() {
        out["dependsOn"] = json!(file.depends_on);
    }
    if let Some(test_of) = &file.test_of {
        out["testOf"] = json!(test_of);
    }
    if file.likely_generated {
        out["likelyGenerated"] = json!(true);
    }
    if file.changes.len() >= 2 {
        out["changes"] = json!(file
            .changes
            .iter()
            .map(|c| json!({
                "id": c.id,
                "header": c.header,
                "preview": c.preview,
                "additions": c.additions,
                "deletions": c.deletions,
            }))
            .collect::<Vec<_>>());
    }
    out
}

/// Adds each file's patch within the per-file cap and the remaining response budget (measured as
/// the patch's JSON-escaped length). Returns true when any patch was cut or left out for the budget.
pub fn attach_patches(files: &mut [Value], snapshot: &[SnapshotFile], budget: usize) -> bool {
    // Reserve every file's field names and flags, and the top-level flag, before any text.
    let mut budget = budget.saturating_sub(files.len() * PER_FILE_OVERHEAD + PER_FILE_OVERHEAD);
    let mut truncated_for_budget = false;
    for (out, file) in files.iter_mut().zip(snapshot) {
        let Some(patch) = &file.patch else {
            out["patchUnavailable"] = json!(true);
            continue;
        };
        let (capped, cut) = cut_patch(patch, MAX_PATCH_CHARS);
        let cost = json_len(&json!(capped));
        if cost <= budget {
            budget -= cost;
            out["patch"] = json!(capped);
            if cut {
                out["patchTruncated"] = json!(true);
            }
            continue;
        }
        truncated_for_budget = true;
        out["patchTruncated"] = json!(true);
        // Escaping can double a character's length, so half the room in characters always fits.
        let (partial, _) = cut_patch(capped, budget / 2);
        let cost = json_len(&json!(partial));
        if !partial.is_empty() && cost <= budget {
            budget -= cost;
            out["patch"] = json!(partial);
        }
    }
    truncated_for_budget
}
