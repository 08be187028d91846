// One thread model, in Chromium against a real edge with two people: a
// message has one way into its thread, "Reply in thread", which opens the
// thread with its composer focused; replies (the person's and an agent's)
// stay in the thread — the conversation shows "N replies" under the message,
// never a copy — unless the sender ticks "Also send to …", an explicit
// choice cleared after each reply; the quote of the thread's first message
// is its rendered text, not its **Markdown**.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeAndBrowser, twoPeople } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('Reply in thread opens the thread focused; replies stay there unless also sent; quotes are rendered', async () => {
  const { id, agent, pages: [ann, bob], close, heard } = await twoPeople(started, 'Threads', 'agent:planner', 'workspace.message.posted');
  try {
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: '**Ship** the _release_ on Friday?' });
    const annColumn = ann.locator('.conversation-column');
    const bobColumn = bob.locator('.conversation-column');
    const root = annColumn.locator('.message', { hasText: 'Ship the release on Friday?' });
    await root.waitFor({ timeout: 15_000 });
    const id0 = await root.getAttribute('data-id');

    // One action: "Reply in thread" (no separate Thread link or Reply button).
    await root.hover();
    const actions = await root.locator('.actions > a, .actions > button').evaluateAll((els) => els
      .filter((e) => !e.classList.contains('sheet-close')).map((e) => e.textContent.trim()));
    assert.ok(actions.includes('Reply in thread'), JSON.stringify(actions));
    assert.ok(!actions.includes('Reply') && !actions.includes('Thread'), JSON.stringify(actions));
    await root.getByRole('link', { name: /^Reply in thread to “Ship the release on Friday\?”/ }).click();
    await ann.waitForURL(`**/thread/${id0}`);
    const pane = ann.getByRole('region', { name: 'Thread' });
    const threadBox = pane.getByRole('textbox', { name: 'Thread reply' });
    // The composer has the focus: typing goes straight into the reply.
    await until('the thread composer is focused', () => threadBox.evaluate((e) => e === document.activeElement), 10_000);
    await ann.keyboard.type('Friday works for me');
    assert.equal(await threadBox.inputValue(), 'Friday works for me');
    await ann.keyboard.press('Enter');
    const reply = await until('the reply', () => heard.find((e) => e.payload.content === 'Friday works for me'));
    assert.equal(reply.metadata.in_reply_to, id0);
    assert.equal(reply.metadata.also_in_conversation, undefined, 'not sent to the conversation');
    await pane.locator('.message', { hasText: 'Friday works for me' }).waitFor({ timeout: 10_000 });

    // An agent's thread reply stays in the thread too.
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'noted, drafting notes' }, { metadata: { in_reply_to: id0 } });
    await pane.locator('.message', { hasText: 'noted, drafting notes' }).waitFor({ timeout: 10_000 });

    // Bob's conversation counts the replies under the message and shows no copy of them.
    const bobRoot = bobColumn.locator('.message', { hasText: 'Ship the release on Friday?' });
    await bobRoot.locator('.thread-link', { hasText: '2 replies' }).waitFor({ timeout: 15_000 });
    assert.equal(await bobColumn.locator('.message', { hasText: 'Friday works for me' }).count(), 0, 'the reply is not in the conversation');
    assert.equal(await bobColumn.locator('.message', { hasText: 'noted, drafting' }).count(), 0, "the agent's neither");
    assert.doesNotMatch(await bobColumn.textContent(), /in reply to/);
    assert.equal(await annColumn.locator('.message', { hasText: 'Friday works for me' }).count(), 0);

    // "Also send to Everyone" is an explicit choice: the reply shows in both, with a rendered quote.
    const also = pane.getByRole('checkbox', { name: 'Also send to Everyone' });
    assert.equal(await also.isChecked(), false);
    await also.check();
    await shoot(ann, 'thread-also-send');
    await threadBox.fill('Posting the plan for everyone');
    await threadBox.press('Enter');
    const shared = await until('the shared reply', () => heard.find((e) => e.payload.content === 'Posting the plan for everyone'));
    assert.equal(shared.metadata.in_reply_to, id0);
    assert.equal(shared.metadata.also_in_conversation, true);
    assert.equal(await also.isChecked(), false, 'the choice is cleared after the reply');
    const inBob = bobColumn.locator('.message', { hasText: 'Posting the plan for everyone' });
    await inBob.waitFor({ timeout: 10_000 });
    const quote = (await inBob.locator('.thread').textContent()).trim();
    assert.equal(quote, '↪ replied in the thread of “Ship the release on Friday?”');
    assert.doesNotMatch(quote, /\*\*|_release_/, 'the quote is rendered text');
    await bobRoot.locator('.thread-link', { hasText: '3 replies' }).waitFor({ timeout: 10_000 });
    // The quote leads into the thread.
    await inBob.locator('a.thread').click();
    await bob.waitForURL(`**/thread/${id0}`);
    await bob.getByRole('region', { name: 'Thread' }).locator('.message', { hasText: 'Friday works for me' }).waitFor({ timeout: 10_000 });
    await shoot(bob, 'thread');
    await bob.getByRole('link', { name: 'Back to the conversation' }).click();
    await shoot(bob, 'thread-replies');
  } finally {
    await close();
  }
});
