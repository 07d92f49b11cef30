// The sgcheck extension for VS Code: the Soul Gems languages and their highlighting come from
// package.json; this file starts the sgcheck language server (`sgcheck server`, over stdio) for
// logs, cards, pack manifests and scenarios. Set-up: docs/editors.md; the server: docs/server.md.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

// The files the server checks (the YAML ones keep VS Code's own "yaml" language).
const DOCUMENTS = [
  { scheme: "file", language: "sglog" },
  { scheme: "file", language: "sgcard" },
  { scheme: "file", language: "yaml", pattern: "**/*.sgcard.yaml" },
  { scheme: "file", language: "yaml", pattern: "**/sgpack.yaml" },
  { scheme: "file", language: "yaml", pattern: "**/*.scenario.yaml" },
];
// Files whose changes on disk the server hears of: a pack is re-checked when one of its files
// changes, a log re-replayed when its pack or scenario does, all of them when the configuration does.
const WATCHED = "**/{*.sglog,*.sgcard,*.sgcard.yaml,sgpack.yaml,*.scenario.yaml,pyproject.toml}";

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("sgcheck")
    .get("server.command", ["sgcheck", "server"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: DOCUMENTS,
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher(WATCHED) },
  };
  client = new LanguageClient("sgcheck", "sgcheck", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand("sgcheck.restartServer", () => client.restart()),
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
