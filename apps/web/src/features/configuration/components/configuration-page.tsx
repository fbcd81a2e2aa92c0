import { type ConfigurationTab, configurationMessages, configurationTabs, type WebRoute } from '@canopy/contract';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ServerPageBlocked, ServerPageLoading } from '../../../components/server-page-gate.tsx';
import { Card, TabBar } from '../../../components/ui/index.ts';
import { useOwnedServer } from '../../../hooks/use-owned-server.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { configurationGate, visibleConfigurationTabs } from '../configuration-access.ts';
import { CustomItemsTab } from './custom-items-tab.tsx';
import { CustomTexturesTab } from './custom-textures-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { NewbieKitTab } from './newbie-kit-tab.tsx';

const tabLabels: Record<ConfigurationTab, string> = {
  general: 'General',
  'newbie-kit': 'Newbie Kit',
  'custom-items': 'Custom Items',
  'custom-textures': 'Custom Textures',
};

/** Configuration (/configuration): General, Newbie Kit, Custom Items and Custom Textures. */
export function ConfigurationPage(_props: { route: WebRoute }) {
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">Configuration</h1>
        <p className="mt-1 text-ink-muted">
          Creators, server settings, the newbie kit and custom items of your server.
        </p>
      </header>
      <ConfigurationGate />
    </section>
  );
}

/** The page's content once the server is ONLINE or OFFLINE and the user may configure it; else the reason. */
function ConfigurationGate() {
  const { profile } = useRegisteredProfile();
  const owned = useOwnedServer(profile.serverOwned);
  const gate = configurationGate(profile, owned.isPending ? undefined : owned.server?.status);
  if (gate.kind === 'ready') return <ConfigurationTabs />;
  if (gate.kind === 'loading') return <ServerPageLoading />;
  return <ServerPageBlocked reason={gate.reason} message={gate.message} />;
}

/**
 * The chosen tab lives in the URL (`?tab=newbie-kit`), not in component state: saving the kit or the custom
 * items restarts the server, the gate then swaps the tabs for the busy message, and state would come back
 * on the first tab once the server is online again.
 */
function useChosenTab(): [ConfigurationTab | null, (tab: ConfigurationTab) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get('tab');
  const chosen = configurationTabs.find((tab) => tab === value) ?? null;
  return [chosen, (tab) => setParams({ tab }, { replace: true })];
}

function ConfigurationTabs() {
  const { profile, settings } = useRegisteredProfile();
  const tabs = visibleConfigurationTabs(settings, profile.isAdmin);
  const [chosen, setChosen] = useChosenTab();
  const active = chosen && tabs.includes(chosen) ? chosen : tabs[0];
  // A tab once opened stays mounted (hidden) while another is shown, so that its unsaved draft (the kit,
  // the custom items, a chosen PNG) survives a look at another tab. Adding to the set is idempotent.
  const opened = useRef(new Set<ConfigurationTab>());
  if (active) opened.current.add(active);
  if (!active)
    return (
      <Card>
        <p data-testid="configuration-disabled" className="text-ink-muted">
          {configurationMessages.allDisabled}
        </p>
      </Card>
    );
  const panel = (tab: ConfigurationTab) => {
    switch (tab) {
      case 'general':
        return <GeneralTab userId={profile.id} />;
      case 'newbie-kit':
        return <NewbieKitTab userId={profile.id} />;
      case 'custom-items':
        return <CustomItemsTab />;
      case 'custom-textures':
        return <CustomTexturesTab />;
    }
  };
  return (
    <div className="flex flex-col gap-6">
      <TabBar
        label="Configuration sections"
        idPrefix="configuration"
        tabs={tabs.map((id) => ({ id, label: tabLabels[id] }))}
        active={active}
        onChange={setChosen}
      />
      {tabs
        .filter((tab) => opened.current.has(tab))
        .map((tab) => (
          <div
            key={tab}
            role="tabpanel"
            id={`configuration-panel-${tab}`}
            aria-labelledby={`configuration-tab-${tab}`}
            hidden={tab !== active}
          >
            {panel(tab)}
          </div>
        ))}
    </div>
  );
}
