/**
 * Preloaded into a child process (`node --import <this file> …`) by the memory bench: at exit, writes the
 * process's peak resident set (kB, getrusage's ru_maxrss) to the file named by BENCH_MAX_RSS_FILE, so a
 * command's peak is read without a tool the machine may not have (/usr/bin/time).
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
