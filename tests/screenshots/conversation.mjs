// Screenshots of a real conversation in the workspace, for the README and
// for looking at the screens before saying they are done: a network with
// history, agents from the npm package (core/js) and a person in Chromium
// talk (a mention, a multi-line message, a thread with replies, a status,
// reactions),
// then the conversation, a thread and an empty channel are captured at
// 1366×768 and 390×844, light and dark. It also prints the time from
// navigation to a joined workspace ("app ready") and from a click on a
// conversation to its messages ("navigation").
//
//   scripts/build-worker            # web + edge, once
//   node tests/screenshots/conversation.mjs [out-dir]   # default docs/screenshots
//
// It starts its own edge on 127.0.0.1 and Chromium, and stops both.

import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../core/js/index.js';
import { startEdge, createNetwork } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = resolve(process.argv[2] ?? join(root, 'docs', 'screenshots'));
const SIZES = { wide: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

await mkdir(out, { recursive: true });
const edge = await startEdge();
const browser = await launchBrowser();
const agents = [];
try {
  const { id } = await createNetwork(edge.url, { name: 'Launch crew', mods: ['workspace', 'persistence'] });
  const connect = async (name) => {
    const agent = await Agent.connect({ url: edge.url, network: id, name });
    agents.push(agent);
    return agent;
  };
  const planner = await connect('agent:planner');
  const researcher = await connect('agent:researcher');
  // Agents have names, as people do (workspace.member.updated tells everyone).
  await planner.send('core', 'network.agent.profile', { name: 'Planner' });
  await researcher.send('core', 'network.agent.profile', { name: 'Researcher' });
  const say = (agent, content, metadata) =>
    agent.send('agent:broadcast', 'workspace.message.posted', { content }, metadata ? { metadata } : undefined);

  // What the network kept before the person came.
  await say(planner, 'Morning all. The launch checklist is in resource/file/launch.md; I will keep it current.');
  await say(planner, 'Open items: pricing page copy, the status page, and the press note.');
  await say(researcher, 'I compared three status page services. Summary: the hosted one is fine below 10k subscribers.');

  const context = await browser.newContext({ viewport: SIZES.wide });
  const page = await context.newPage();
  let start = Date.now();
  await page.goto(`${edge.url}/n/${id}`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
  const ready = Date.now() - start;
  await page.locator('.message', { hasText: 'three status page services' }).waitFor({ timeout: 15_000 });
  // The first visit asks for a name: the person gives one.
  const prompt = page.getByRole('region', { name: 'What should people here call you?' });
  await prompt.getByRole('textbox', { name: 'Your name' }).fill('Maya Chen');
  await prompt.getByRole('button', { name: 'Save' }).click();
  await prompt.waitFor({ state: 'detached', timeout: 15_000 });

  // A channel the person made, where the agents talk while the person is elsewhere (unread).
  await page.getByRole('textbox', { name: 'New channel' }).fill('Press Room');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL('**/channel/press-room');
  await page.getByRole('link', { name: 'Everyone' }).click();
  await planner.joinChannel('press-room');
  await planner.send('channel/press-room', 'workspace.message.posted', { content: 'Embargo lifts Tuesday 09:00.' });
  await planner.send('channel/press-room', 'workspace.message.posted', { content: 'Contact list is attached to the checklist.' });

  const box = page.getByRole('textbox', { name: 'Message' });
  const post = async (text) => {
    await box.click();
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      await box.pressSequentially(line, { delay: 0 });
      if (i < lines.length - 1) await box.press('Shift+Enter');
    }
    await box.press('Enter');
    // Delivered: the message no longer waits ("sending" shows only until then).
    await page.locator('.message[data-state="sent"]', { hasText: lines.at(-1).slice(-20) }).last().waitFor({ timeout: 10_000 });
  };
  await post('Thanks! @agent:researcher can you draft the press note from the checklist?');
  const question = page.locator('.message', { hasText: 'draft the press note' });
  const root = await question.getAttribute('data-id');
  await researcher.send('agent:broadcast', 'workspace.message.status', { status: 'drafting the press note' });
  await say(researcher, 'On it. First draft in ten minutes.', { in_reply_to: root });
  await say(planner, 'I will review it when it lands.', { in_reply_to: root });
  await post('Two things for the note:\n- lead with the status page\n- keep it under 200 words');
  await say(researcher, 'Draft ready: 180 words, status page first. Shared as resource/file/press-note.md.');
  // Reactions, as the agents and the person make them.
  await planner.send('agent:broadcast', 'workspace.reaction.added', { message: root, emoji: '👍' });
  await researcher.send('agent:broadcast', 'workspace.reaction.added', { message: root, emoji: '👍' });
  await planner.send('agent:broadcast', 'workspace.reaction.added', { message: root, emoji: '🚀' });
  await question.getByRole('button', { name: /^🚀 1 person/ }).click();
  await question.getByRole('button', { name: /^🚀 2 people/ }).waitFor({ timeout: 10_000 });
  await pause(500);

  const shoot = async (name) => {
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await pause(300);
        await page.screenshot({ path: join(out, `${name}-${size}-${colorScheme}.png`) });
      }
    }
    await page.setViewportSize(SIZES.wide);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  await shoot('conversation');

  // The thread, with its replies.
  await question.locator('.thread-link', { hasText: '2 replies' }).click();
  // (beside the conversation on a wide screen, instead of it on a phone)
  await page.getByRole('region', { name: 'Thread' }).locator('.message', { hasText: 'review it when it lands' }).waitFor({ timeout: 10_000 });
  await shoot('thread');

  // An empty channel, and navigation back to the conversation.
  await page.getByRole('textbox', { name: 'New channel' }).fill('Design Review');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByText('No messages in # Design Review yet').waitFor({ timeout: 10_000 });
  await shoot('empty-channel');
  const navigation = [];
  for (let n = 0; n < 5; n += 1) {
    start = Date.now();
    await page.getByRole('link', { name: 'Everyone' }).click();
    await page.locator('.message', { hasText: 'Draft ready' }).waitFor();
    navigation.push(Date.now() - start);
    await page.getByRole('link', { name: '# Design Review' }).click();
    await page.getByText('No messages in # Design Review yet').waitFor();
  }
  navigation.sort((a, b) => a - b);
  console.log(`app ready (navigation to online): ${ready} ms`);
  console.log(`navigation (Everyone, 5 times): median ${navigation[2]} ms, ${navigation[0]}–${navigation[4]} ms`);
  console.log(`screenshots in ${out}`);
  await context.close();
} finally {
  for (const agent of agents) agent.close();
  await browser.close();
  await edge.stop();
}
