//! The few things a `.csproj` says that C# import resolution needs: the project's root
//! namespace and the projects it references.
//!
//! Why: a C# `using A.B;` names a namespace, visible only from projects that reference the one
//! declaring it (MSBuild's `<ProjectReference>` items, transitive in SDK-style projects), and a
//! file whose `namespace` line is out of view is, by the IDE's convention, in the project's
//! `<RootNamespace>` (the project file's name by default) plus its folders (issue #46).
//! A reader of the XML subset project files use for these: elements and attributes by name,
//! no entities beyond the usual five, no DTDs.
//!
//! What not: no evaluation of MSBuild properties (`$(…)` other than the project's own name and
//! directory), no `Directory.Build.props` imports, no conditions (every reference counts), no
//! `.sln` files.

use crate::review::hints::paths;

/// One project file read at the head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsProject {
    /// The project's directory: every `.cs` file below it is the project's (SDK-style globs).
    pub dir: String,
    /// `<RootNamespace>`, else `<AssemblyName>`, else the file's name.
    pub root_namespace: String,
    /// Repository paths of the referenced project files.
    pub references: Vec<String>,
}

/// Reads the project file at `path`; `None` when it is not a project file.
pub fn project(path: &str, text: &str) -> Option<CsProject> {
    if !text.contains("<Project") {
        return None;
    }
    let dir = paths::parent(path);
    let stem = paths::stem(path);
    let property = |name: &str| {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        let start = text.find(&open)? + open.len();
        let value = text.get(start..)?.split(close.as_str()).next()?.trim();
        let value = value.replace("$(MSBuildProjectName)", stem);
        (!value.is_empty() && !value.contains("$(")).then_some(value)
    };
    let root_namespace = property("RootNamespace")
        .or_else(|| property("AssemblyName"))
        .unwrap_or_else(|| stem.to_string());
    let mut references = Vec::new();
    for element in text.split("<ProjectReference").skip(1) {
        let Some(include) = attribute(element, "Include") else {
            continue;
        };
        let include = decode(&include)
            .replace('\\', "/")
            .replace("$(MSBuildThisFileDirectory)", "")
            .replace("$(MSBuildProjectDirectory)/", "");
        if include.contains("$(") {
            continue;
        }
        references.extend(paths::join(dir, &include));
    }
    Some(CsProject {
        dir: dir.to_string(),
        root_namespace,
        references,
    })
}

/// The value of `name="…"` (or `'…'`) in the start tag that `element` begins.
fn attribute(element: &str, name: &str) -> Option<String> {
    let tag = element.split('>').next()?;
    let mut rest = tag;
    while let Some(at) = rest.find(name) {
        let before = rest.get(..at)?.chars().last();
        let after = rest.get(at + name.len()..)?.trim_start();
        rest = rest.get(at + name.len()..)?;
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let Some(value) = after.strip_prefix('=') else {
            continue;
        };
        let value = value.trim_start();
        let quote = value.chars().next()?;
        if quote != '"' && quote != '\'' {
            continue;
        }
        return value.get(1..)?.split(quote).next().map(str::to_string);
    }
    None
}

fn decode(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::{project, CsProject};

    #[test]
    fn root_namespace_and_references() {
        let text = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    \
            <RootNamespace>Microsoft.eShopWeb.Web</RootNamespace>\n  </PropertyGroup>\n  <ItemGroup>\n    \
            <ProjectReference Include=\"..\\ApplicationCore\\ApplicationCore.csproj\" />\n    \
            <ProjectReference PrivateAssets='all' Include='../Shared/Shared.csproj'>\n      <Private>false</Private>\n    </ProjectReference>\n    \
            <ProjectReference Include=\"$(RepoRoot)src/Gen/Gen.csproj\" />\n    \
            <PackageReference Include=\"MediatR\" Version=\"12.2.0\" />\n  </ItemGroup>\n</Project>\n";
        assert_eq!(
            project("src/Web/Web.csproj", text),
            Some(CsProject {
                dir: "src/Web".to_string(),
                root_namespace: "Microsoft.eShopWeb.Web".to_string(),
                references: vec![
                    "src/ApplicationCore/ApplicationCore.csproj".to_string(),
                    "src/Shared/Shared.csproj".to_string()
                ],
            })
        );
        let plain = project(
            "tests/Shop.Tests/Shop.Tests.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <ItemGroup>\n    \
             <ProjectReference Include=\"..\\..\\src\\Shop\\Shop.csproj\" />\n  </ItemGroup>\n</Project>",
        );
        assert_eq!(
            plain.map(|p| (p.root_namespace, p.references)),
            Some((
                "Shop.Tests".to_string(),
                vec!["src/Shop/Shop.csproj".to_string()]
            ))
        );
        assert_eq!(project("a/a.csproj", "not xml"), None);
    }
}
