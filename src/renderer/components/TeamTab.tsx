import { useDashboard } from '../store';
import { Pane } from './Pane';
import { useSettingUp } from './TeamManager';
import { LEAD } from '../../contract/limits';

export function TeamTab() {
  const members = useDashboard((s) => s.members);
  const maximised = useDashboard((s) => s.maximised);
  const teammates = members.filter((m) => m.name !== LEAD);
  const settingUp = useSettingUp();
  const cc = useDashboard((s) => !!s.workspace?.claudeCode);
  return (
    <div className="team-tab">
      {teammates.length === 0 && (
        <div className="empty">{cc ? 'No members: the team has not started, or its files could not be read (above).' : settingUp ? 'The lead is setting up the team: its teammates appear here as it starts them.' : 'No teammates yet: create a team and add members above, or ask the lead to build one.'}</div>
      )}
      <div className={`grid${maximised ? ' has-max' : ''}`} style={{ ['--cols' as string]: String(Math.min(3, Math.max(1, Math.ceil(Math.sqrt(members.length))))) }}>
        {members.map((m) => (
          <Pane key={m.name} member={m} visible={!maximised || maximised === m.name} />
        ))}
      </div>
    </div>
  );
}
