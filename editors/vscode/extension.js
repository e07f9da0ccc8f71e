// Starts `rulebook lsp` for the YAML files of pack folders (those under a pack.yaml) in the workspace.
const { workspace } = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverOptions() {
  const command = workspace.getConfiguration('rulebook').get('command', 'rulebook');
  // A script path (bin/rulebook.mjs in a clone) runs under the Node that VS Code finds on the PATH.
  const run = command.endsWith('.mjs') || command.endsWith('.js') ? { command: 'node', args: [command, 'lsp'] } : { command, args: ['lsp'] };
  return { ...run, transport: TransportKind.stdio };
}

function activate(context) {
  client = new LanguageClient('rulebook', 'Rulebook', serverOptions(), {
    // Every YAML file: the server answers for those inside a pack folder and leaves the others alone.
    documentSelector: [{ scheme: 'file', language: 'yaml' }],
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{yaml,yml}') },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
