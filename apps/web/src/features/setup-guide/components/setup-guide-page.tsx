import {
  DEFAULT_SETUP_LANGUAGE,
  SETUP_PLATFORMS,
  type SetupGuide,
  type SetupLanguage,
  type SetupPlatform,
  setupCopyLabels,
  setupGuideContent,
  setupGuideMessages,
  setupPlatformLabels,
} from '@canopy/contract';
import { useState } from 'react';
import { Banner, Card, TabBar } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useSetupGuide } from '../api/get-setup-guide.ts';
import { CopyBlock } from './copy-block.tsx';
import { LanguageSwitch } from './language-switch.tsx';

const tabs = SETUP_PLATFORMS.map((id) => ({ id, label: setupPlatformLabels[id] }));

/** What each platform's copy button copies, from the api's guide data. */
function copyable(platform: SetupPlatform, guide: SetupGuide | undefined) {
  if (platform === 'windows') return { key: 'hosts', value: guide?.hostsLines.join('\n') } as const;
  if (platform === 'android') return { key: 'tunnel', value: guide?.tunnelUrl } as const;
  return { key: 'surge', value: guide?.surgeUrl } as const;
}

/**
 * The Setup Guide (/how-to-play, spec 2.11): per platform, the steps and what to copy; ID or EN. A note follows
 * when the game's sign-in page has only the development certificate (ADR 0027).
 */
export function SetupGuidePage() {
  const [language, setLanguage] = useState<SetupLanguage>(DEFAULT_SETUP_LANGUAGE);
  const [platform, setPlatform] = useState<SetupPlatform>('windows');
  const guide = useSetupGuide();
  useErrorToast(guide.error);
  const { labels, platforms } = setupGuideContent[language];
  const section = platforms[platform];
  const copy = copyable(platform, guide.data);
  const titles = { hosts: labels.hostsLines, tunnel: labels.tunnelUrl, surge: labels.surgeUrl };

  return (
    <section className="flex flex-col gap-6" lang={language.toLowerCase()}>
      <header>
        <h1 className="font-bold text-2xl text-ink">{setupGuideMessages.title}</h1>
        <p className="mt-1 text-ink-muted">{labels.intro}</p>
      </header>
      <div className="flex flex-col gap-4">
        {/* The language sits beside the tabs, clear of the toasts stacked at the top right. */}
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-0 flex-1">
            <TabBar
              tabs={tabs}
              active={platform}
              onChange={setPlatform}
              label={setupGuideMessages.title}
              idPrefix="setup"
            />
          </div>
          <LanguageSwitch value={language} onChange={setLanguage} label={labels.language} />
        </div>
        <div role="tabpanel" id={`setup-panel-${platform}`} aria-labelledby={`setup-tab-${platform}`}>
          <Card heading={section.title} data-testid="setup-section" data-platform={platform} data-language={language}>
            <div className="flex flex-col gap-5">
              <ol className="flex list-decimal flex-col gap-2 pl-5 text-ink text-sm leading-relaxed marker:text-ink-muted">
                {section.steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
              <CopyBlock
                title={titles[copy.key]}
                copyLabel={setupCopyLabels[copy.key]}
                buttonLabel={labels.copy}
                copiedMessage={labels.copied}
                value={copy.value}
                failed={guide.isError}
                testId={`setup-${copy.key}`}
              />
              <p className="text-ink-muted text-sm">
                {labels.serverIp}:{' '}
                <span data-testid="setup-ip" className="font-mono text-ink">
                  {guide.data?.ip ?? (guide.isError ? '—' : '…')}
                </span>
              </p>
              <p className="rounded-lg border border-accent/30 bg-accent/10 p-3 text-ink text-sm">{section.note}</p>
            </div>
          </Card>
        </div>
      </div>
      {/* After the guide, not in it: the steps stay as the spec has them; this only tells why sign-in may fail. */}
      {guide.data?.loginPage.certificate === 'self-signed' && (
        <Banner tone="info" data-testid="setup-dev-certificate">
          {labels.devCertificate}
        </Banner>
      )}
    </section>
  );
}
