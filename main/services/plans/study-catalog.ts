// The studies shipped in resources/studies (one plan file each, <id>.yaml), with what each seed
// published (resources/studies/published/<id>.yaml, when shipped), read on every request so an edited
// file shows without a restart. A broken file is listed with what is wrong, never fatal: a study whose
// published figures are broken is still listed, without them.

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePublishedResults, type PublishedResults } from '../../../app/plans/published-results.ts';
import { parseStudy, type StudyCatalog } from '../../../app/plans/studies.ts';
import { publishedChapter, publishedFor } from '../../../app/plans/published-report.ts';
import type { Comparison } from '../../../app/sessions/comparison.ts';
import { builtInResourceDir } from '../resources.ts';

/** The folder beside the studies with each seed's published figures. */
const PUBLISHED_DIR = 'published';

/** A study is a plan file: YAML, or JSON (which is YAML too). */
const STUDY_FILE = /\.(ya?ml|json)$/;

/** resources/studies of this installation. */
export function builtInStudiesDir(): string | null {
  return builtInResourceDir('studies');
}

export async function loadStudies(dir: string | null): Promise<StudyCatalog> {
  if (!dir) return { studies: [], broken: [{ file: 'resources/studies', error: 'the studies folder was not found' }] };
  const catalog: StudyCatalog = { studies: [], broken: [] };
  for (const file of (await readdir(dir)).filter((name) => STUDY_FILE.test(name)).sort()) {
    const study = parseStudy(await readFile(join(dir, file), 'utf8'));
    if (typeof study === 'string') catalog.broken.push({ file, error: study });
    else if (catalog.studies.some((other) => other.id === study.id)) catalog.broken.push({ file, error: `id "${study.id}" is used by another study` });
    else catalog.studies.push({ ...study, published: await loadPublished(dir, study.id, catalog, study.profile.requests?.map((request) => request.name) ?? []) });
  }
  // By name, numbers as numbers: a series' parts ("1 of 4" … "4 of 4") in their order, not their files'.
  catalog.studies.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' }));
  return catalog;
}

/** The figures a study's seed published, or null when none are shipped (or they are broken: listed so). */
async function loadPublished(dir: string, studyId: string, catalog: StudyCatalog, requestNames: readonly string[]): Promise<PublishedResults | null> {
  const file = join(PUBLISHED_DIR, `${studyId}.yaml`);
  if (!existsSync(join(dir, file))) return null;
  const published = parsePublishedResults(await readFile(join(dir, file), 'utf8'));
  if (typeof published === 'string') catalog.broken.push({ file, error: published });
  else if (published.study !== studyId) catalog.broken.push({ file, error: `study: says "${published.study}", but the file is for "${studyId}"` });
  else {
    // A row's request names one of the study's named requests, so its figures stand beside that endpoint's runs.
    const stray = published.results.findIndex((row) => row.request !== undefined && !requestNames.includes(row.request));
    if (stray < 0) return published;
    catalog.broken.push({ file, error: `results.${stray}.request: "${published.results[stray]!.request}" is not a request of the study (${requestNames.join(', ') || 'it names none'})` });
  }
  return null;
}

/**
 * The printed comparison's chapter of a study's published figures beside Benchlab's, when every
 * compared session is that study's (tagged with its id) and the study ships its seed's figures.
 */
export async function publishedReportChapters(comparison: Comparison, dir: string | null = builtInStudiesDir()): Promise<string[]> {
  const { studies } = await loadStudies(dir);
  const chapter = publishedChapter(comparison, publishedFor(comparison, studies.flatMap((study) => (study.published ? [study.published] : []))));
  return chapter ? [chapter] : [];
}
