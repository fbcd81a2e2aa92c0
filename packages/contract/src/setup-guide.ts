import { z } from 'zod';

/**
 * The Setup Guide (panel document, section 2.11; domain notes "How a client reaches a private server"):
 * how a player points the game's hostnames at the platform's game IP on Windows, Android and iOS. The
 * content is plain data so that the page and SkyHelper's offline helper say the same thing.
 */

/** Languages of the guide; Indonesian first and the default, as on the spec's other Indonesian pages. */
export const SETUP_LANGUAGES = ['ID', 'EN'] as const;
export type SetupLanguage = (typeof SETUP_LANGUAGES)[number];
export const DEFAULT_SETUP_LANGUAGE: SetupLanguage = 'ID';

/** The guide's tabs, in order. */
export const SETUP_PLATFORMS = ['windows', 'android', 'ios'] as const;
export type SetupPlatform = (typeof SETUP_PLATFORMS)[number];
export const setupPlatformLabels: Record<SetupPlatform, string> = {
  windows: 'Windows',
  android: 'Android',
  ios: 'iOS',
};

/**
 * The hostnames the game client resolves. The two www names are the ones it asks for its server data; many
 * guides also redirect the bare names, which costs nothing and helps older clients.
 */
export const GAME_HOSTNAMES = ['www.growtopia1.com', 'www.growtopia2.com', 'growtopia1.com', 'growtopia2.com'] as const;

/** Where the Windows hosts file lives (edited as administrator). */
export const WINDOWS_HOSTS_PATH = 'C:\\Windows\\System32\\drivers\\etc\\hosts';

/** Stable paths of the api's setup files (public, plain text) and of the signed-in guide data (JSON). */
export const setupPaths = {
  hosts: '/setup/hosts',
  tunnel: '/setup/powertunnel.txt',
  surge: '/setup/surge.conf',
  guide: '/setup-guide',
} as const;

/** Public setup files live under this prefix (the web server must hand them to the api, never the app). */
export const SETUP_FILES_PREFIX = '/setup/';

/** The hosts-file lines pointing every game hostname at `ip`, www names first. */
export function hostsLines(ip: string): string[] {
  return GAME_HOSTNAMES.map((host) => `${ip} ${host}`);
}

/** The body of GET /setup/hosts and /setup/powertunnel.txt: the hosts lines, one per line. */
export function hostsFile(ip: string): string {
  return `${hostsLines(ip).join('\n')}\n`;
}

/** The body of GET /setup/surge.conf: a Surge (or Shadowrocket) profile mapping the game hostnames to `ip`. */
export function surgeProfile(ip: string): string {
  const hosts = GAME_HOSTNAMES.map((host) => `${host} = ${ip}`);
  return `${['[General]', 'bypass-system = true', '[Rule]', 'FINAL,DIRECT', '[Host]', ...hosts].join('\n')}\n`;
}

/**
 * Which certificate the game's sign-in page (the gateway's login page, ADR 0027) is served with: the operator's
 * own ('operator', CANOPY_LOGIN_TLS_CERT/KEY), one issued over ACME ('acme'), or the gateway's self-signed pair
 * ('self-signed': no CANOPY_LOGIN_HOST, no certificate for it, or ACME not issued yet), which the game's web view
 * does not trust, so it is for development only.
 */
export const LOGIN_PAGE_CERTIFICATES = ['operator', 'acme', 'self-signed'] as const;
export type LoginPageCertificate = (typeof LOGIN_PAGE_CERTIFICATES)[number];

/** The game's sign-in page as players' clients reach it. */
export const loginPageSchema = z.object({
  /** CANOPY_LOGIN_HOST as `loginurl` names it (`login.example.com`, a port only when not 443); null when unset. */
  host: z.string().min(1).nullable(),
  certificate: z.enum(LOGIN_PAGE_CERTIFICATES),
});
export type LoginPage = z.infer<typeof loginPageSchema>;

/**
 * GET /setup-guide: the game IP, the hosts lines, the absolute URLs of the tunnel list and the Surge profile,
 * and how the game's sign-in page is served (the page notes a development certificate).
 */
export const setupGuideSchema = z.object({
  ip: z.string().min(1),
  hostsLines: z.array(z.string()),
  tunnelUrl: z.url(),
  surgeUrl: z.url(),
  loginPage: loginPageSchema,
});
export type SetupGuide = z.infer<typeof setupGuideSchema>;

/** Texts of the Setup Guide that are not per language (spec sections 2.11 and 8). */
export const setupGuideMessages = {
  title: 'Setup Guide',
  // The spec's texts, in English in both languages.
  copyFailed: 'Failed to copy.',
  nothingToCopy: (label: string) => `No ${label} to copy.`,
  fetchFailed: 'Could not load the setup guide.',
  // The configured game address is a hostname that does not resolve to an IPv4 address right now.
  ipUnresolved: 'The game server address could not be resolved. Please try again later.',
} as const;

/** What the copy buttons copy, named as in 'No {label} to copy.'. */
export const setupCopyLabels = {
  hosts: 'hosts lines',
  tunnel: 'tunnel URL',
  surge: 'profile URL',
} as const;

/** One platform's guide in one language: a title, the steps in order, and a closing note. */
export interface SetupGuideSection {
  title: string;
  steps: readonly string[];
  note: string;
}

/** Labels of the page in one language. */
export interface SetupGuideLabels {
  intro: string;
  language: string;
  serverIp: string;
  hostsLines: string;
  tunnelUrl: string;
  surgeUrl: string;
  copy: string;
  /** The toast of a copy that worked. */
  copied: string;
  /** Shown only when the game's sign-in page has the development (self-signed) certificate. */
  devCertificate: string;
}

/** The guide in both languages. */
export const setupGuideContent: Record<
  SetupLanguage,
  { labels: SetupGuideLabels; platforms: Record<SetupPlatform, SetupGuideSection> }
> = {
  ID: {
    labels: {
      intro: 'Arahkan game ke server ini, lalu masuk seperti biasa. Pilih perangkat Anda di bawah.',
      language: 'Bahasa',
      serverIp: 'IP server',
      hostsLines: 'Baris hosts',
      tunnelUrl: 'URL tunnel (PowerTunnel)',
      surgeUrl: 'URL profil (Surge / Shadowrocket)',
      copy: 'Salin',
      copied: 'Disalin ke papan klip.',
      devCertificate:
        'Halaman masuk game di platform ini memakai sertifikat pengembangan. Game mungkin belum bisa membukanya sampai operator memasang sertifikat tepercaya.',
    },
    platforms: {
      windows: {
        title: 'Windows: ubah berkas hosts',
        steps: [
          'Tekan Start, ketik "Notepad", klik kanan lalu pilih "Run as administrator" (Jalankan sebagai administrator).',
          `Di Notepad pilih File > Open, lalu buka ${WINDOWS_HOSTS_PATH} (ubah jenis berkas menjadi "All Files" agar berkas hosts terlihat).`,
          'Tambahkan baris hosts di bawah ini di akhir berkas, lalu simpan (Ctrl+S).',
          'Buka Command Prompt dan jalankan ipconfig /flushdns untuk membersihkan cache DNS.',
          'Buka Growtopia dan masuk ke server.',
        ],
        note: 'Untuk kembali ke server resmi, hapus baris tersebut dari berkas hosts dan jalankan ipconfig /flushdns lagi.',
      },
      android: {
        title: 'Android: PowerTunnel',
        steps: [
          'Pasang PowerTunnel (atau aplikasi daftar host lain yang bisa membaca daftar host dari URL).',
          'Buka pengaturan aplikasi dan tambahkan URL tunnel di bawah ini sebagai sumber daftar host (hosts list).',
          'Atur periode pembaruan (update period) ke "saat mulai" (on start) agar daftar selalu terbaru.',
          'Aktifkan tunnel dan izinkan permintaan VPN jika diminta.',
          'Buka Growtopia dan masuk ke server.',
        ],
        note: 'Untuk kembali ke server resmi, matikan tunnel sebelum membuka game.',
      },
      ios: {
        title: 'iOS: Surge atau Shadowrocket',
        steps: [
          'Pasang Surge atau Shadowrocket dari App Store.',
          'Di aplikasi, pilih impor profil (konfigurasi) dari URL dan tempelkan URL profil di bawah ini.',
          'Pilih profil yang baru diimpor, lalu aktifkan dan izinkan konfigurasi VPN jika diminta.',
          'Buka Growtopia dan masuk ke server.',
        ],
        note: 'Untuk kembali ke server resmi, matikan Surge atau Shadowrocket sebelum membuka game.',
      },
    },
  },
  EN: {
    labels: {
      intro: 'Point the game at this server, then log in as usual. Pick your device below.',
      language: 'Language',
      serverIp: 'Server IP',
      hostsLines: 'Hosts lines',
      tunnelUrl: 'Tunnel URL (PowerTunnel)',
      surgeUrl: 'Profile URL (Surge / Shadowrocket)',
      copy: 'Copy',
      copied: 'Copied to clipboard.',
      devCertificate:
        "This platform's game sign-in page uses a development certificate. The game may not open it until the operator installs a trusted certificate.",
    },
    platforms: {
      windows: {
        title: 'Windows: edit the hosts file',
        steps: [
          'Press Start, type "Notepad", right-click it and choose "Run as administrator".',
          `In Notepad choose File > Open and open ${WINDOWS_HOSTS_PATH} (set the file type to "All Files" so the hosts file shows).`,
          'Add the hosts lines below at the end of the file, then save it (Ctrl+S).',
          'Open Command Prompt and run ipconfig /flushdns to clear the DNS cache.',
          'Open Growtopia and log in to the server.',
        ],
        note: 'To go back to the official servers, remove those lines from the hosts file and run ipconfig /flushdns again.',
      },
      android: {
        title: 'Android: PowerTunnel',
        steps: [
          'Install PowerTunnel (or another host-list app that reads a hosts list from a URL).',
          "Open the app's settings and add the tunnel URL below as the hosts-list source.",
          'Set the update period to "on start" so the list is always current.',
          'Enable the tunnel and allow the VPN request if asked.',
          'Open Growtopia and log in to the server.',
        ],
        note: 'To go back to the official servers, turn the tunnel off before opening the game.',
      },
      ios: {
        title: 'iOS: Surge or Shadowrocket',
        steps: [
          'Install Surge or Shadowrocket from the App Store.',
          'In the app, choose to import a profile (configuration) from a URL and paste the profile URL below.',
          'Select the imported profile, then enable it and allow the VPN configuration if asked.',
          'Open Growtopia and log in to the server.',
        ],
        note: 'To go back to the official servers, turn Surge or Shadowrocket off before opening the game.',
      },
    },
  },
};
