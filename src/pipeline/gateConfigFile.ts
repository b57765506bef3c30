/** The gate config a comparison applies: the inline text, else the file, else the built-in default. */
import { createHash } from 'node:crypto';
import { cannotRead } from '../errors.js';
import { defaultGateConfig, parseGateConfig } from '../gate/config.js';
import type { GateConfig } from '../gate/config.js';
import { MAX_CONFIG_BYTES, readRegularFile } from '../load/regularFile.js';
import type { ConfigOrigin } from '../render/reportContext.js';

/**
 * The gate config (the inline text, else the file, else the built-in default) and where it came from: a file's hash
 * is of its bytes as read; the inline text's of the text trimmed, as the action's inputs are.
 */
export function loadGateConfig(
  configPath: string | null | undefined,
  configText: string | null | undefined,
  builtIn: GateConfig = defaultGateConfig(),
): { config: GateConfig; origin: ConfigOrigin } {
  const hashOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);
  if (configText && configText.trim() !== '')
    return {
      config: parseGateConfig(configText, 'gates input'),
      origin: { source: 'gates input', sha256: hashOf(configText.trim()) },
    };
  if (!configPath) return { config: builtIn, origin: { source: null, sha256: null } };
  let text: string;
  try {
    text = readRegularFile(configPath, 'the gate config', MAX_CONFIG_BYTES).toString('utf8');
  } catch (error) {
    throw cannotRead(configPath, error, 'the gate config');
  }
  return { config: parseGateConfig(text, configPath), origin: { source: configPath, sha256: hashOf(text) } };
}
