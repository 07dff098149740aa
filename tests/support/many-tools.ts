// 200 MCP tools in 14 domains, the same on every run (SPEC §18 tests and bench 14): what an owner
// who connects a handful of MCP servers offers the mind. Each domain is one server; some say what
// they are for in their instructions, some only through their tools; two speak Chinese. A
// parameter is `[name, type, description]`: a name ending in `?` is optional; types are `s`, `n`,
// `i`, `b`, `s[]` and `e:a/b/c` (an enum).

type Param = [name: string, type: string, description: string]
type Spec = [name: string, description: string, params: Param[]]

export interface Domain {
  id: string
  instructions?: string
  tools: Spec[]
}

export interface ToolDef {
  name: string
  description: string
  inputSchema: { type: 'object'; properties: Record<string, any>; required?: string[] }
}

const ID: Param = ['id', 's', 'the id, as returned by the list or search tools']
const LIMIT: Param = ['limit?', 'i', 'how many results at most (1-100, default 20)']
const CURSOR: Param = ['cursor?', 's', 'the next-page cursor of a previous answer']

export const DOMAINS: Domain[] = [
  {
    id: 'calendar',
    instructions: 'Google-style calendars of the owner: events, invitations, reminders and free time. Times are ISO 8601 with an offset.',
    tools: [
      ['list_calendars', 'List the calendars the account can see, with their ids, names, colours and whether they are writable.', []],
      ['list_events', 'List events of a calendar between two times, in start order. Recurring events are expanded into single occurrences.', [['calendar_id?', 's', 'the calendar (default: primary)'], ['time_min', 's', 'start of the range, ISO 8601'], ['time_max', 's', 'end of the range, ISO 8601'], LIMIT]],
      ['get_event', 'Get one event with its title, description, time, location, attendees and their responses, and conference link.', [ID]],
      ['create_event', 'Create an event (a meeting or appointment) on a calendar with a title, start and end, and optionally a location, a description and attendees to invite by email.', [['title', 's', 'the summary shown in the calendar'], ['start', 's', 'ISO 8601 start time'], ['end', 's', 'ISO 8601 end time'], ['location?', 's', 'a place or address'], ['attendees?', 's[]', 'email addresses to invite'], ['description?', 's', 'notes for the attendees']]],
      ['update_event', 'Change fields of an existing event: title, description, location or visibility. Use move_event to change its time.', [ID, ['title?', 's', 'new title'], ['description?', 's', 'new description'], ['location?', 's', 'new location'], ['visibility?', 'e:default/public/private', 'who sees the details']]],
      ['move_event', 'Reschedule an event to a new start and end time, optionally notifying the attendees of the new time.', [ID, ['start', 's', 'new ISO 8601 start'], ['end', 's', 'new ISO 8601 end'], ['notify?', 'b', 'email the attendees (default true)']]],
      ['delete_event', 'Delete (cancel) an event; attendees receive a cancellation notice unless notify is false.', [ID, ['notify?', 'b', 'send cancellation emails (default true)']]],
      ['find_free_slots', 'Find times when all the given people are free, within working hours, for a meeting of a given length.', [['emails', 's[]', 'the people who must attend'], ['duration_minutes', 'i', 'length of the meeting'], ['time_min', 's', 'earliest start, ISO 8601'], ['time_max', 's', 'latest end, ISO 8601']]],
      ['add_attendees', 'Invite more people to an existing event; they receive an invitation email.', [ID, ['emails', 's[]', 'addresses to invite']]],
      ['remove_attendee', 'Remove one person from the guest list of an event.', [ID, ['email', 's', 'the guest to remove']]],
      ['respond_to_invitation', 'Accept, decline or tentatively accept an invitation to an event, with an optional comment to the organizer.', [ID, ['response', 'e:accepted/declined/tentative', 'your answer'], ['comment?', 's', 'a note to the organizer']]],
      ['set_reminder', 'Add a reminder to an event: a popup or an email a number of minutes before it starts.', [ID, ['minutes_before', 'i', 'how long before the start'], ['method?', 'e:popup/email', 'how to remind (default popup)']]],
      ['create_recurring_event', 'Create an event that repeats (daily, weekly on given weekdays, monthly) until a date or for a number of occurrences.', [['title', 's', 'the summary'], ['start', 's', 'first occurrence start, ISO 8601'], ['end', 's', 'first occurrence end, ISO 8601'], ['frequency', 'e:daily/weekly/monthly/yearly', 'how often'], ['weekdays?', 's[]', 'MO, TU, ... for weekly events'], ['until?', 's', 'last date'], ['count?', 'i', 'number of occurrences']]],
      ['share_calendar', 'Share a calendar with another person with a role: see free/busy only, read, or edit.', [['calendar_id', 's', 'the calendar'], ['email', 's', 'who gets access'], ['role', 'e:freeBusyReader/reader/writer', 'what they may do']]],
      ['export_ics', 'Export the events of a calendar in a date range as an iCalendar (.ics) file.', [['calendar_id', 's', 'the calendar'], ['time_min?', 's', 'range start'], ['time_max?', 's', 'range end']]],
      ['world_clock', 'Show the current time in several cities or time zones at once, to plan calls across time zones.', [['zones', 's[]', 'IANA zones or city names']]],
    ],
  },
  {
    id: 'files',
    instructions: 'Files and folders of the owner\'s cloud drive. Paths are absolute, starting with /.',
    tools: [
      ['list_directory', 'List the entries of a folder: names, kinds (file or folder), sizes and modification times.', [['path', 's', 'the folder'], ['show_hidden?', 'b', 'include dot files']]],
      ['read_file', 'Read a text file, whole or a range of lines.', [['path', 's', 'the file'], ['start_line?', 'i', 'first line, 1-based'], ['end_line?', 'i', 'last line']]],
      ['write_file', 'Write a text file, creating it or replacing its whole content.', [['path', 's', 'the file'], ['content', 's', 'the new content']]],
      ['append_to_file', 'Append text to the end of a file, creating it if missing.', [['path', 's', 'the file'], ['content', 's', 'text to add']]],
      ['delete_path', 'Delete a file or a folder (a folder only with recursive: true). Deleted items go to the trash.', [['path', 's', 'what to delete'], ['recursive?', 'b', 'delete a folder with its content']]],
      ['move_path', 'Move or rename a file or folder.', [['from', 's', 'current path'], ['to', 's', 'new path'], ['overwrite?', 'b', 'replace an existing target']]],
      ['copy_path', 'Copy a file or folder to another place.', [['from', 's', 'source path'], ['to', 's', 'destination path']]],
      ['create_directory', 'Create a folder, with its missing parent folders.', [['path', 's', 'the folder to create']]],
      ['find_files', 'Find files whose names match a glob pattern such as **/*.pdf under a folder.', [['root', 's', 'where to look'], ['pattern', 's', 'glob pattern'], LIMIT]],
      ['grep', 'Search the text inside files for a regular expression; returns matching lines with file and line number.', [['root', 's', 'folder to search'], ['regex', 's', 'the pattern'], ['include?', 's', 'glob of files to search, e.g. *.md'], LIMIT]],
      ['stat', 'Metadata of a file: size, created and modified times, owner, MIME type, checksum.', [['path', 's', 'the file']]],
      ['zip', 'Compress files and folders into a .zip archive.', [['paths', 's[]', 'what to put in it'], ['output', 's', 'the archive path']]],
      ['unzip', 'Extract a .zip or .tar.gz archive into a folder.', [['archive', 's', 'the archive'], ['destination', 's', 'target folder']]],
      ['create_share_link', 'Create a public link to a file or folder that anyone with the link can open, optionally expiring.', [['path', 's', 'what to share'], ['expires_in_days?', 'i', 'days until the link stops working'], ['allow_download?', 'b', 'allow downloading (default true)']]],
      ['upload_from_url', 'Download a file from an internet URL and save it in the drive.', [['url', 's', 'http(s) URL'], ['path', 's', 'where to save it']]],
      ['list_trash', 'List deleted items in the trash, with when they were deleted.', [LIMIT]],
      ['restore_from_trash', 'Restore a deleted item from the trash to its original place.', [['trash_id', 's', 'the id from list_trash']]],
      ['storage_quota', 'How much of the drive\'s storage is used and free, by kind of file.', []],
    ],
  },
  {
    id: 'weather',
    tools: [
      ['current', 'Current weather at a place: temperature, feels-like, humidity, wind, pressure, cloud cover and a short summary.', [['location', 's', 'city name, "lat,lon" or postal code'], ['units?', 'e:metric/imperial', 'unit system']]],
      ['forecast_daily', 'Daily weather forecast for up to 14 days: high and low temperature, chance of rain or snow, wind.', [['location', 's', 'city name or "lat,lon"'], ['days?', 'i', '1-14, default 7'], ['units?', 'e:metric/imperial', 'unit system']]],
      ['forecast_hourly', 'Hour-by-hour forecast for the next 48 hours: temperature, precipitation probability and amount, wind gusts.', [['location', 's', 'city name or "lat,lon"'], ['hours?', 'i', '1-48, default 24']]],
      ['air_quality', 'Air quality index (AQI) and pollutant concentrations (PM2.5, PM10, ozone, NO2) at a place, with health advice.', [['location', 's', 'city name or "lat,lon"']]],
      ['uv_index', 'UV index now and its daily maximum, with sun protection advice.', [['location', 's', 'city name or "lat,lon"']]],
      ['alerts', 'Active severe weather warnings (storms, floods, heat waves) issued by national services for an area.', [['location', 's', 'city name, region or "lat,lon"']]],
      ['history', 'Observed weather on a past date: temperatures, rainfall, wind.', [['location', 's', 'city name or "lat,lon"'], ['date', 's', 'YYYY-MM-DD']]],
      ['astronomy', 'Sunrise, sunset, moonrise, moonset and moon phase for a place and date.', [['location', 's', 'city name or "lat,lon"'], ['date?', 's', 'YYYY-MM-DD, default today']]],
      ['pollen', 'Pollen forecast for grass, tree and weed pollen, for people with hay fever or allergies.', [['location', 's', 'city name or "lat,lon"'], ['days?', 'i', '1-5']]],
      ['marine', 'Marine forecast: wave height, swell period and direction, water temperature, tides, for sailing and surfing.', [['location', 's', 'coastal place or "lat,lon"']]],
      ['radar_image', 'A precipitation radar map image around a place, current or up to 2 hours ahead.', [['location', 's', 'city name or "lat,lon"'], ['minutes_ahead?', 'i', '0-120']]],
      ['ski_report', 'Snow report of a ski resort: snow depth, fresh snow, open lifts and slopes.', [['resort', 's', 'resort name']]],
      ['climate_normals', 'Long-term climate averages of a place by month: typical temperatures, rainy days, sunshine hours, to plan a trip.', [['location', 's', 'city name or "lat,lon"'], ['month?', 'i', '1-12']]],
      ['lightning', 'Lightning strikes detected near a place in the last hour, with distance and direction.', [['location', 's', 'city name or "lat,lon"'], ['radius_km?', 'i', 'default 50']]],
    ],
  },
  {
    id: 'music',
    instructions: 'Controls the owner\'s music streaming account and its players (phone, speakers).',
    tools: [
      ['search', 'Search the catalog for tracks, albums, artists or playlists by words.', [['query', 's', 'words to search for'], ['type?', 'e:track/album/artist/playlist', 'what to find'], LIMIT]],
      ['play', 'Start playing a track, album, artist or playlist by its URI on the active device, or resume playback.', [['uri?', 's', 'what to play; without it playback resumes'], ['device_id?', 's', 'where to play']]],
      ['pause', 'Pause playback on the active device.', [['device_id?', 's', 'the device']]],
      ['next_track', 'Skip to the next track in the queue.', []],
      ['previous_track', 'Go back to the previous track.', []],
      ['set_volume', 'Set the playback volume of a device in percent.', [['percent', 'i', '0-100'], ['device_id?', 's', 'the device']]],
      ['set_shuffle', 'Turn shuffle on or off.', [['on', 'b', 'shuffle state']]],
      ['set_repeat', 'Set repeat mode: the track, the context (album/playlist), or off.', [['mode', 'e:track/context/off', 'repeat mode']]],
      ['queue_add', 'Add a track to the end of the playback queue.', [['uri', 's', 'the track URI']]],
      ['now_playing', 'What is playing now: track, artist, album, progress and device.', []],
      ['list_devices', 'List the devices (speakers, phones, computers) that can play, and which one is active.', []],
      ['transfer_playback', 'Move playback to another device, e.g. from the phone to the living room speaker.', [['device_id', 's', 'the new device'], ['play?', 'b', 'start playing there']]],
      ['create_playlist', 'Create a new playlist with a name and description.', [['name', 's', 'playlist name'], ['description?', 's', 'shown under the name'], ['public?', 'b', 'visible on the profile']]],
      ['add_to_playlist', 'Add tracks to a playlist.', [['playlist_id', 's', 'the playlist'], ['uris', 's[]', 'track URIs']]],
      ['remove_from_playlist', 'Remove tracks from a playlist.', [['playlist_id', 's', 'the playlist'], ['uris', 's[]', 'track URIs']]],
      ['lyrics', 'The lyrics of a track, synchronised with time stamps where available.', [['track_uri', 's', 'the track']]],
      ['recommendations', 'Recommend tracks similar to given tracks, artists or genres, with a mood (energy, danceability).', [['seed_tracks?', 's[]', 'track URIs'], ['seed_artists?', 's[]', 'artist URIs'], ['seed_genres?', 's[]', 'genres'], ['energy?', 'n', '0-1']]],
      ['save_track', 'Save (like) a track to the library, or remove it from the library.', [['uri', 's', 'the track'], ['saved', 'b', 'true to save, false to remove']]],
    ],
  },
  {
    id: 'finance',
    tools: [
      ['stock_quote', 'Latest price of a stock or ETF by ticker symbol: price, change, volume, market cap.', [['symbol', 's', 'ticker, e.g. AAPL'], ['exchange?', 's', 'exchange code']]],
      ['stock_history', 'Historical daily prices (open, high, low, close, volume) of a stock for a date range, for charts.', [['symbol', 's', 'ticker'], ['from', 's', 'YYYY-MM-DD'], ['to', 's', 'YYYY-MM-DD']]],
      ['list_accounts', 'List the owner\'s bank accounts and cards with their names, types and last four digits.', []],
      ['account_balance', 'Current and available balance of a bank account.', [['account_id', 's', 'the account']]],
      ['list_transactions', 'Transactions of an account in a date range: date, merchant, amount, category.', [['account_id', 's', 'the account'], ['from?', 's', 'YYYY-MM-DD'], ['to?', 's', 'YYYY-MM-DD'], ['min_amount?', 'n', 'only larger amounts'], LIMIT]],
      ['transfer', 'Transfer money between the owner\'s accounts or to a saved recipient (IBAN).', [['from_account', 's', 'source account'], ['to', 's', 'target account id or IBAN'], ['amount', 'n', 'amount'], ['currency', 's', 'ISO 4217 code'], ['reference?', 's', 'payment reference']]],
      ['pay_bill', 'Pay a bill (electricity, phone, rent) to a saved payee, now or on a scheduled date.', [['payee_id', 's', 'the payee'], ['amount', 'n', 'amount'], ['date?', 's', 'payment date']]],
      ['convert_currency', 'Convert an amount from one currency to another at the current exchange rate.', [['amount', 'n', 'amount'], ['from', 's', 'ISO 4217 code, e.g. USD'], ['to', 's', 'ISO 4217 code, e.g. EUR']]],
      ['exchange_rates', 'Current exchange rates of a base currency against others.', [['base', 's', 'ISO 4217 code'], ['symbols?', 's[]', 'only these currencies']]],
      ['create_budget', 'Create a monthly spending budget for a category, e.g. 300 for groceries.', [['category', 's', 'spending category'], ['monthly_limit', 'n', 'amount per month']]],
      ['budget_status', 'How much of each budget was spent this month and what is left.', [['month?', 's', 'YYYY-MM']]],
      ['portfolio', 'Investment portfolio summary: holdings, their value, gains and losses, allocation.', []],
      ['place_order', 'Place an order to buy or sell shares: market or limit order.', [['symbol', 's', 'ticker'], ['side', 'e:buy/sell', 'buy or sell'], ['quantity', 'n', 'number of shares'], ['type?', 'e:market/limit', 'order type'], ['limit_price?', 'n', 'for limit orders']]],
      ['cancel_order', 'Cancel an open stock order that has not been filled.', [['order_id', 's', 'the order']]],
      ['categorize_transaction', 'Set or correct the spending category of a transaction.', [['transaction_id', 's', 'the transaction'], ['category', 's', 'e.g. groceries, travel, rent']]],
      ['statement_pdf', 'Download the monthly account statement as a PDF.', [['account_id', 's', 'the account'], ['month', 's', 'YYYY-MM']]],
      ['crypto_price', 'Current price of a cryptocurrency such as Bitcoin or Ether in a fiat currency, with its 24-hour change.', [['coin', 's', 'e.g. BTC, ETH'], ['currency?', 's', 'default USD']]],
      ['dividends', 'Upcoming and past dividend payments of a stock: ex-dividend date, pay date, amount per share, yield.', [['symbol', 's', 'ticker']]],
    ],
  },
  {
    id: 'issues',
    instructions: 'The team\'s issue tracker and code review: issues, labels, milestones, pull requests.',
    tools: [
      ['list_issues', 'List issues of a project, filtered by state, labels, assignee or milestone, newest first.', [['project', 's', 'owner/name'], ['state?', 'e:open/closed/all', 'default open'], ['labels?', 's[]', 'all of these labels'], ['assignee?', 's', 'user name'], LIMIT, CURSOR]],
      ['get_issue', 'Get one issue: title, body, state, labels, assignees, milestone and reactions.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number']]],
      ['create_issue', 'Open a new issue (bug report or feature request) with a title and a Markdown body.', [['project', 's', 'owner/name'], ['title', 's', 'short summary'], ['body?', 's', 'Markdown description'], ['labels?', 's[]', 'labels to add'], ['assignees?', 's[]', 'people to assign']]],
      ['update_issue', 'Edit the title or body of an issue.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number'], ['title?', 's', 'new title'], ['body?', 's', 'new body']]],
      ['close_issue', 'Close an issue as completed or as not planned, with an optional closing comment.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number'], ['reason?', 'e:completed/not_planned', 'why'], ['comment?', 's', 'a last comment']]],
      ['reopen_issue', 'Reopen a closed issue.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number']]],
      ['add_comment', 'Post a comment on an issue or pull request.', [['project', 's', 'owner/name'], ['number', 'i', 'issue or PR number'], ['body', 's', 'Markdown text']]],
      ['list_comments', 'List the comments of an issue in order.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number'], LIMIT]],
      ['assign', 'Assign people to an issue or remove them.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number'], ['add?', 's[]', 'users to assign'], ['remove?', 's[]', 'users to unassign']]],
      ['set_labels', 'Add or remove labels (bug, enhancement, priority) on an issue.', [['project', 's', 'owner/name'], ['number', 'i', 'issue number'], ['add?', 's[]', 'labels to add'], ['remove?', 's[]', 'labels to remove']]],
      ['create_label', 'Create a label with a name, colour and description.', [['project', 's', 'owner/name'], ['name', 's', 'label name'], ['color', 's', 'hex colour'], ['description?', 's', 'what it means']]],
      ['create_milestone', 'Create a milestone (a release target) with a due date.', [['project', 's', 'owner/name'], ['title', 's', 'e.g. v2.0'], ['due_on?', 's', 'YYYY-MM-DD']]],
      ['milestone_progress', 'Open and closed issue counts of a milestone, and its due date.', [['project', 's', 'owner/name'], ['milestone', 's', 'title or number']]],
      ['search_issues', 'Full-text search over issues and pull requests of all projects, with the tracker\'s query syntax.', [['query', 's', 'e.g. "crash is:open label:bug"'], LIMIT]],
      ['list_pull_requests', 'List pull requests of a project with their review state and checks.', [['project', 's', 'owner/name'], ['state?', 'e:open/closed/merged/all', 'default open'], LIMIT]],
      ['merge_pull_request', 'Merge a pull request with a merge commit, squash or rebase.', [['project', 's', 'owner/name'], ['number', 'i', 'PR number'], ['method?', 'e:merge/squash/rebase', 'default merge']]],
      ['request_review', 'Ask people to review a pull request.', [['project', 's', 'owner/name'], ['number', 'i', 'PR number'], ['reviewers', 's[]', 'user names']]],
      ['pr_diff', 'The diff of a pull request: changed files with added and removed lines.', [['project', 's', 'owner/name'], ['number', 'i', 'PR number']]],
    ],
  },
  {
    id: 'home',
    instructions: 'Smart home hub: lights, climate, locks, cameras, appliances and automations in the owner\'s house.',
    tools: [
      ['list_devices', 'List devices by room with their kind (light, plug, thermostat, lock, camera, vacuum) and state.', [['room?', 's', 'only this room']]],
      ['turn_on', 'Switch on a device: a light, a smart plug, a fan or an appliance.', [['device_id', 's', 'the device']]],
      ['turn_off', 'Switch off a device.', [['device_id', 's', 'the device']]],
      ['set_brightness', 'Dim or brighten a light, in percent.', [['device_id', 's', 'the light'], ['percent', 'i', '1-100']]],
      ['set_light_color', 'Set the colour or colour temperature of a light.', [['device_id', 's', 'the light'], ['color?', 's', 'a colour name or hex'], ['kelvin?', 'i', '2000-6500']]],
      ['set_thermostat', 'Set the target temperature and mode (heat, cool, auto, off) of a thermostat or air conditioner.', [['device_id', 's', 'the thermostat'], ['target_celsius', 'n', 'target temperature'], ['mode?', 'e:heat/cool/auto/off', 'mode']]],
      ['read_sensor', 'Read a sensor: indoor temperature, humidity, CO2, motion or a door/window contact.', [['device_id', 's', 'the sensor']]],
      ['lock', 'Lock a door lock.', [['device_id', 's', 'the lock']]],
      ['unlock', 'Unlock a door lock (requires the owner\'s confirmation code).', [['device_id', 's', 'the lock'], ['code', 's', 'confirmation code']]],
      ['camera_snapshot', 'Take a still picture from a security camera.', [['device_id', 's', 'the camera']]],
      ['run_scene', 'Activate a scene such as "movie night" or "good morning" that sets several devices at once.', [['scene', 's', 'scene name']]],
      ['create_automation', 'Create an automation rule: when a trigger happens (a time, sunset, motion, a device state), do actions.', [['name', 's', 'rule name'], ['trigger', 's', 'e.g. "sunset" or "motion in hallway"'], ['actions', 's[]', 'e.g. "turn_on hallway_light"']]],
      ['list_automations', 'List automation rules and whether they are enabled.', []],
      ['vacuum', 'Start, pause or send home the robot vacuum cleaner, optionally for one room.', [['command', 'e:start/pause/dock', 'what to do'], ['room?', 's', 'clean only this room']]],
      ['energy_report', 'Electricity consumption of the house or of one device over a period, in kWh and cost.', [['device_id?', 's', 'one device'], ['period', 'e:day/week/month', 'the period']]],
      ['garage_door', 'Open or close the garage door.', [['action', 'e:open/close', 'what to do']]],
    ],
  },
  {
    id: 'translate',
    tools: [
      ['translate_text', 'Translate text into a target language; the source language is detected when not given.', [['text', 's', 'the text'], ['target', 's', 'language code, e.g. en, zh, ja'], ['source?', 's', 'language code'], ['formality?', 'e:default/more/less', 'tone']]],
      ['detect_language', 'Detect the language of a text, with a confidence score.', [['text', 's', 'the text']]],
      ['supported_languages', 'List the languages that can be translated, with their codes.', []],
      ['translate_document', 'Translate a whole document (PDF, DOCX, PPTX) keeping its layout; returns the translated file.', [['url', 's', 'the document URL'], ['target', 's', 'language code']]],
      ['transliterate', 'Convert text from one script to another, e.g. Chinese characters to pinyin, Cyrillic to Latin.', [['text', 's', 'the text'], ['to_script', 's', 'e.g. Latn, pinyin']]],
      ['glossary_add', 'Add a term and its fixed translation to the glossary, so translations keep brand and product names.', [['term', 's', 'source term'], ['translation', 's', 'target term'], ['target', 's', 'language code']]],
      ['dictionary', 'Look a word up in a bilingual dictionary: meanings, part of speech, example sentences.', [['word', 's', 'the word'], ['from', 's', 'language code'], ['to', 's', 'language code']]],
      ['text_to_speech', 'Read text aloud: synthesise speech audio in a language and voice.', [['text', 's', 'what to say'], ['language', 's', 'language code'], ['voice?', 's', 'voice name']]],
      ['grammar_check', 'Check spelling and grammar of a text and suggest corrections.', [['text', 's', 'the text'], ['language?', 's', 'language code']]],
      ['speech_to_text', 'Transcribe an audio recording into text, with the spoken language detected.', [['audio_url', 's', 'the recording'], ['language?', 's', 'language code']]],
      ['translate_batch', 'Translate many short strings at once (UI texts, subtitles) into one target language, keeping their order.', [['texts', 's[]', 'the strings'], ['target', 's', 'language code']]],
      ['translate_webpage', 'Fetch a web page and return its main text translated into a target language.', [['url', 's', 'the page'], ['target', 's', 'language code']]],
    ],
  },
  {
    id: 'mail',
    instructions: 'The owner\'s email mailbox: reading, sending, organising and searching messages.',
    tools: [
      ['list_messages', 'List messages of a folder (default inbox), newest first: sender, subject, date, unread flag.', [['folder?', 's', 'default INBOX'], ['unread_only?', 'b', 'only unread'], LIMIT]],
      ['read_message', 'Read one email with headers, body text and attachment names.', [ID]],
      ['send', 'Send a new email to recipients with a subject and body.', [['to', 's[]', 'recipients'], ['subject', 's', 'subject line'], ['body', 's', 'plain text or HTML'], ['cc?', 's[]', 'copy recipients'], ['attachments?', 's[]', 'file URLs to attach']]],
      ['reply', 'Reply to an email (or to all its recipients).', [ID, ['body', 's', 'the reply'], ['reply_all?', 'b', 'reply to all']]],
      ['forward', 'Forward an email to other people with a note.', [ID, ['to', 's[]', 'recipients'], ['note?', 's', 'text above the forwarded message']]],
      ['trash', 'Move an email to the trash.', [ID]],
      ['archive', 'Archive an email (remove it from the inbox, keep it).', [ID]],
      ['mark', 'Mark emails read or unread, starred or not.', [['ids', 's[]', 'message ids'], ['read?', 'b', 'read state'], ['starred?', 'b', 'star state']]],
      ['move_to_folder', 'Move an email to a folder or label.', [ID, ['folder', 's', 'target folder']]],
      ['search', 'Search the mailbox by sender, subject words, date range or attachment.', [['query', 's', 'e.g. "from:alice invoice after:2024-01-01"'], LIMIT]],
      ['create_draft', 'Save an email as a draft without sending it.', [['to', 's[]', 'recipients'], ['subject', 's', 'subject'], ['body', 's', 'body']]],
      ['download_attachment', 'Download an attachment of an email as a file.', [ID, ['attachment_name', 's', 'the file name']]],
      ['create_filter', 'Create a rule that sorts incoming mail: when from/subject matches, move, label or delete it.', [['match', 's', 'e.g. "from:newsletter@shop.com"'], ['action', 'e:move/label/delete/star', 'what to do'], ['target?', 's', 'folder or label']]],
      ['unsubscribe', 'Unsubscribe from a mailing list or newsletter using the List-Unsubscribe header of one of its emails.', [ID]],
    ],
  },
  {
    id: 'maps',
    tools: [
      ['geocode', 'Convert an address or place name into latitude and longitude coordinates.', [['address', 's', 'the address']]],
      ['reverse_geocode', 'Find the street address at given coordinates.', [['lat', 'n', 'latitude'], ['lon', 'n', 'longitude']]],
      ['directions', 'Route between two places by car, on foot, by bike or by public transit, with turn-by-turn steps, distance and duration.', [['origin', 's', 'start address or "lat,lon"'], ['destination', 's', 'end address or "lat,lon"'], ['mode?', 'e:driving/walking/bicycling/transit', 'default driving'], ['depart_at?', 's', 'ISO 8601']]],
      ['nearby', 'Find places of a kind near a location: restaurants, cafes, pharmacies, petrol stations, ATMs.', [['location', 's', 'address or "lat,lon"'], ['kind', 's', 'e.g. restaurant'], ['radius_m?', 'i', 'search radius in metres'], ['open_now?', 'b', 'only open places']]],
      ['place_details', 'Details of a place: address, phone, opening hours, rating, reviews, website.', [['place_id', 's', 'from nearby or text_search']]],
      ['text_search', 'Search places by a free text such as "best ramen in Shinjuku".', [['query', 's', 'the text'], ['near?', 's', 'bias results to this area']]],
      ['distance_matrix', 'Travel distances and times between several origins and destinations.', [['origins', 's[]', 'places'], ['destinations', 's[]', 'places'], ['mode?', 'e:driving/walking/bicycling/transit', 'default driving']]],
      ['traffic', 'Live traffic on a road or around a place: congestion, incidents, road closures.', [['location', 's', 'road name or area']]],
      ['elevation', 'Altitude above sea level of points.', [['points', 's[]', '"lat,lon" pairs']]],
      ['timezone', 'The time zone and local time at a place.', [['location', 's', 'address or "lat,lon"']]],
      ['static_map', 'A map image of an area with optional markers.', [['center', 's', 'address or "lat,lon"'], ['zoom?', 'i', '1-20'], ['markers?', 's[]', 'places to mark']]],
      ['save_place', 'Save a place to the owner\'s list of favourite places with a label such as Home or Work.', [['place_id', 's', 'the place'], ['label', 's', 'a name for it']]],
      ['isochrone', 'The area reachable from a place within a travel time (e.g. everything within 15 minutes on foot).', [['location', 's', 'address or "lat,lon"'], ['minutes', 'i', 'travel time'], ['mode?', 'e:driving/walking/bicycling', 'default walking']]],
      ['transit_departures', 'Next departures of buses, trams and trains from a public transport stop.', [['stop', 's', 'stop name or id'], ['limit?', 'i', 'how many departures']]],
    ],
  },
  {
    id: 'notes',
    tools: [
      ['list_notes', 'List notes in a notebook with titles, tags and last edit time.', [['notebook?', 's', 'default all'], LIMIT]],
      ['create_note', 'Create a note with a title and Markdown content in a notebook.', [['title', 's', 'title'], ['content', 's', 'Markdown'], ['notebook?', 's', 'notebook'], ['tags?', 's[]', 'tags']]],
      ['append_note', 'Add text at the end of an existing note.', [['note_id', 's', 'the note'], ['text', 's', 'text to add']]],
      ['search_notes', 'Full-text search in notes.', [['query', 's', 'words'], LIMIT]],
      ['delete_note', 'Delete a note.', [['note_id', 's', 'the note']]],
      ['tag_note', 'Add or remove tags on a note.', [['note_id', 's', 'the note'], ['add?', 's[]', 'tags to add'], ['remove?', 's[]', 'tags to remove']]],
      ['create_todo', 'Add a task to a to-do list, with an optional due date and priority.', [['title', 's', 'the task'], ['due?', 's', 'YYYY-MM-DD'], ['priority?', 'e:low/medium/high', 'priority'], ['list?', 's', 'to-do list name']]],
      ['complete_todo', 'Mark a to-do task as done.', [['todo_id', 's', 'the task']]],
      ['list_todos', 'List open tasks, optionally only those due before a date.', [['list?', 's', 'to-do list'], ['due_before?', 's', 'YYYY-MM-DD']]],
      ['pin_note', 'Pin a note to the top of its notebook, or unpin it.', [['note_id', 's', 'the note'], ['pinned', 'b', 'pin state']]],
      ['share_note', 'Share a note with other people by email, read-only or editable.', [['note_id', 's', 'the note'], ['emails', 's[]', 'people'], ['can_edit?', 'b', 'allow editing']]],
      ['export_notebook', 'Export a whole notebook as Markdown files in a zip archive.', [['notebook', 's', 'the notebook']]],
    ],
  },
  {
    id: 'contacts',
    tools: [
      ['search_contacts', 'Find people in the address book by name, email, phone or company.', [['query', 's', 'words'], LIMIT]],
      ['get_contact', 'Everything about one contact: phone numbers, emails, addresses, birthday, notes.', [ID]],
      ['create_contact', 'Add a person to the address book.', [['name', 's', 'full name'], ['emails?', 's[]', 'emails'], ['phones?', 's[]', 'phone numbers'], ['company?', 's', 'company'], ['birthday?', 's', 'YYYY-MM-DD']]],
      ['update_contact', 'Change a contact\'s details: phone number, email, address, company or notes.', [ID, ['phones?', 's[]', 'phone numbers'], ['emails?', 's[]', 'emails'], ['address?', 's', 'postal address'], ['notes?', 's', 'notes']]],
      ['delete_contact', 'Remove a person from the address book.', [ID]],
      ['merge_duplicates', 'Find contacts that are the same person and merge them into one.', [['dry_run?', 'b', 'only list them']]],
      ['upcoming_birthdays', 'Contacts whose birthday is within the next days.', [['days?', 'i', 'default 30']]],
      ['export_vcard', 'Export contacts as a vCard (.vcf) file.', [['ids?', 's[]', 'default all']]],
      ['list_groups', 'List contact groups (family, colleagues, clubs) with how many people each holds.', []],
      ['add_to_group', 'Put contacts into a group, creating the group if needed.', [['group', 's', 'group name'], ['ids', 's[]', 'contact ids']]],
    ],
  },
  {
    id: 'express',
    instructions: '快递服务：查询物流、在线寄件、预约上门取件、运费估算。',
    tools: [
      ['track', '根据快递单号查询物流轨迹，返回每个节点的时间、地点和状态（已揽收、运输中、派送中、已签收）。', [['tracking_number', 's', '快递单号'], ['courier?', 's', '快递公司编码，不填则自动识别']]],
      ['create_shipment', '在线下单寄快递：填写寄件人、收件人、物品类型和重量，返回运单号。', [['sender', 's', '寄件人姓名、电话、地址'], ['receiver', 's', '收件人姓名、电话、地址'], ['goods', 's', '物品类型，如文件、衣物、电子产品'], ['weight_kg', 'n', '重量（公斤）']]],
      ['estimate_fee', '估算运费和预计送达时间：按寄件城市、收件城市和重量计算各快递公司的价格。', [['from_city', 's', '寄件城市'], ['to_city', 's', '收件城市'], ['weight_kg', 'n', '重量（公斤）']]],
      ['schedule_pickup', '预约快递员上门取件，选择取件时间段。', [['order_id', 's', '寄件订单号'], ['time_slot', 's', '取件时间段，如 14:00-16:00']]],
      ['cancel_shipment', '取消尚未揽收的寄件订单。', [['order_id', 's', '寄件订单号'], ['reason?', 's', '取消原因']]],
      ['list_couriers', '列出支持的快递公司及其编码（顺丰、中通、圆通、韵达、京东物流等）。', []],
      ['parse_address', '智能识别一段文字中的收件人姓名、手机号和省市区详细地址。', [['text', 's', '包含地址的文字']]],
      ['my_shipments', '查询我的寄件和收件记录及其当前状态。', [['role?', 'e:sent/received', '寄出或收到'], LIMIT]],
      ['complain', '对快递服务投诉：延误、丢件、破损或态度问题。', [['tracking_number', 's', '快递单号'], ['issue', 'e:delay/lost/damaged/service', '问题类型'], ['detail', 's', '具体情况']]],
      ['pickup_code', '查询驿站或快递柜的取件码。', [['tracking_number', 's', '快递单号']]],
    ],
  },
  {
    id: 'rail',
    instructions: '火车票服务：查询车次和余票、购票、退票、改签、查询正晚点。',
    tools: [
      ['search_trains', '查询两个车站之间某天的车次、出发到达时间、历时和各席别余票（商务座、一等座、二等座、硬卧、软卧）。', [['from_station', 's', '出发站'], ['to_station', 's', '到达站'], ['date', 's', '乘车日期 YYYY-MM-DD'], ['high_speed_only?', 'b', '只看高铁动车']]],
      ['book_ticket', '购买火车票：选择车次、席别和乘车人，返回订单号和座位号。', [['train_no', 's', '车次，如 G101'], ['date', 's', '乘车日期'], ['seat_type', 'e:business/first/second/hard_sleeper/soft_sleeper', '席别'], ['passenger_ids', 's[]', '乘车人']]],
      ['refund_ticket', '退票：退掉已购买的车票，返回退款金额和手续费。', [['order_id', 's', '订单号'], ['ticket_id?', 's', '只退其中一张']]],
      ['change_ticket', '改签：把已购车票改到其他日期或车次。', [['order_id', 's', '订单号'], ['new_train_no', 's', '新车次'], ['new_date', 's', '新日期']]],
      ['list_orders', '查询我的火车票订单：未出行、已出行、已退票。', [['status?', 'e:upcoming/past/refunded', '订单状态']]],
      ['train_stops', '查询某趟列车的经停站和各站到发时刻表。', [['train_no', 's', '车次'], ['date?', 's', '日期']]],
      ['delay_status', '查询列车正晚点信息和预计到站时间。', [['train_no', 's', '车次'], ['station', 's', '车站']]],
      ['passengers', '管理常用乘车人：列出、添加或删除（姓名、身份证号、乘客类型）。', [['action', 'e:list/add/remove', '操作'], ['name?', 's', '姓名'], ['id_number?', 's', '证件号码']]],
      ['station_info', '车站信息：地址、进站口、候车室、换乘地铁线路。', [['station', 's', '车站名']]],
      ['ticket_price', '查询某车次各席别票价。', [['train_no', 's', '车次'], ['from_station', 's', '出发站'], ['to_station', 's', '到达站']]],
    ],
  },
]

function schemaOf(type: string, description: string): Record<string, any> {
  if (type.startsWith('e:')) return { type: 'string', enum: type.slice(2).split('/'), description }
  if (type === 's[]') return { type: 'array', items: { type: 'string' }, description }
  const types: Record<string, string> = { s: 'string', n: 'number', i: 'integer', b: 'boolean' }
  return { type: types[type], description }
}

/** The tools of one domain as the server lists them (its own names, without the server id). */
export function toolDefs(domain: Domain): ToolDef[] {
  return domain.tools.map(([name, description, params]) => {
    const properties: Record<string, any> = {}
    const required: string[] = []
    for (const [raw, type, desc] of params) {
      const key = raw.replace(/\?$/, '')
      properties[key] = schemaOf(type, desc)
      if (!raw.endsWith('?')) required.push(key)
    }
    return { name, description, inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) } }
  })
}

/** How many tools all domains hold. */
export const MANY_TOOLS = DOMAINS.reduce((n, d) => n + d.tools.length, 0)
