/** The `seahaven` command line's entry: runs the command the process was started with (program.ts). */
import { main } from './program.ts';

process.exitCode = await main(process.argv.slice(2));
