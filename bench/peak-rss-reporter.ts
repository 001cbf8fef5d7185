// Loaded with --import into a process whose peak RSS the bench measures (export-rss.ts):
// writes getrusage's maxRSS, in kilobytes, to $LOUPE_PEAK_RSS_FILE as the process exits.
import fs from 'node:fs';

const file = process.env.LOUPE_PEAK_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
