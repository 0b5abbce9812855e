/**
 * How an SMS will be split: GSM-7 (160 characters, 153 per part when split) unless any character
 * needs UCS-2 (70, 67 per part). Counting is Twilio's calculator (graphemes, GSM extension table,
 * surrogate pairs); this wraps it in the few numbers the composer shows.
 */
import { SegmentedMessage } from 'sms-segments-calculator';

export interface SmsSegmentInfo {
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  /** Characters as the carrier counts them (a GSM extension character counts twice). */
  units: number;
  /** Units left before another segment starts. */
  remaining: number;
  /** The characters that forced UCS-2, deduplicated (empty for GSM-7). */
  nonGsmCharacters: string[];
}

const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS_SINGLE = 70;
const UCS_PART = 67;

export function smsSegments(text: string): SmsSegmentInfo {
  if (text === '')
    return { encoding: 'GSM-7', segments: 0, units: 0, remaining: GSM_SINGLE, nonGsmCharacters: [] };
  const message = new SegmentedMessage(text, 'auto');
  const encoding = message.encodingName;
  const segments = message.segmentsCount;
  const single = encoding === 'GSM-7' ? GSM_SINGLE : UCS_SINGLE;
  const part = encoding === 'GSM-7' ? GSM_PART : UCS_PART;
  // Code units: 7-bit septets for GSM-7, 16-bit units for UCS-2 (an emoji is two).
  const units = Math.round(message.messageSize / (encoding === 'GSM-7' ? 7 : 16));
  const capacity = segments <= 1 ? single : segments * part;
  return {
    encoding,
    segments,
    units,
    remaining: Math.max(0, capacity - units),
    nonGsmCharacters: encoding === 'UCS-2' ? [...new Set(message.getNonGsmCharacters())] : [],
  };
}

/** What the composer warns about, if anything. */
export function segmentWarning(info: SmsSegmentInfo, text = ''): string | null {
  const culprits = info.nonGsmCharacters.slice(0, 3).join(' ');
  if (info.nonGsmCharacters.length > 0) {
    // What the same text would cost without the characters that forced Unicode.
    const plain = smsSegments(
      [...text].filter((ch) => !info.nonGsmCharacters.includes(ch)).join(''),
    ).segments;
    if (text && info.segments > Math.max(1, plain))
      return `${culprits} make${info.nonGsmCharacters.length === 1 ? 's' : ''} this a Unicode SMS: ${info.segments} parts instead of ${Math.max(1, plain)}`;
    if (info.segments >= 4) return `Long SMS: sent as ${info.segments} parts`;
    return `${culprits} make${info.nonGsmCharacters.length === 1 ? 's' : ''} this a Unicode SMS (70 characters per part)`;
  }
  if (info.segments >= 4) return `Long SMS: sent as ${info.segments} parts`;
  return null;
}
