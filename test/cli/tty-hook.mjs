// For the CLI tests (node --import ./test/cli/tty-hook.mjs ...): standard output says it is a terminal,
// as it does when a user runs a command without redirecting it. Nothing else is changed.
Object.defineProperty(process.stdout, 'isTTY', { value: true });
