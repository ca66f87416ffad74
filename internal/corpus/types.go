package corpus

// Hand-written Go types for the typed decoding of the corpus files, shared by
// the tests and benchmarks of the library and of the compare module. They
// cover every member of the documents.

// twitter.json

type TwitterDoc struct {
	Statuses       []TwitterStatus `json:"statuses"`
	SearchMetadata struct {
		CompletedIn float64 `json:"completed_in"`
		MaxID       int64   `json:"max_id"`
		MaxIDStr    string  `json:"max_id_str"`
		NextResults string  `json:"next_results"`
		Query       string  `json:"query"`
		RefreshURL  string  `json:"refresh_url"`
		Count       int     `json:"count"`
		SinceID     int64   `json:"since_id"`
		SinceIDStr  string  `json:"since_id_str"`
	} `json:"search_metadata"`
}

type TwitterStatus struct {
	Metadata struct {
		ResultType      string `json:"result_type"`
		IsoLanguageCode string `json:"iso_language_code"`
	} `json:"metadata"`
	CreatedAt            string          `json:"created_at"`
	ID                   int64           `json:"id"`
	IDStr                string          `json:"id_str"`
	Text                 string          `json:"text"`
	Source               string          `json:"source"`
	Truncated            bool            `json:"truncated"`
	InReplyToStatusID    *int64          `json:"in_reply_to_status_id"`
	InReplyToStatusIDStr *string         `json:"in_reply_to_status_id_str"`
	InReplyToUserID      *int64          `json:"in_reply_to_user_id"`
	InReplyToUserIDStr   *string         `json:"in_reply_to_user_id_str"`
	InReplyToScreenName  *string         `json:"in_reply_to_screen_name"`
	User                 TwitterUser     `json:"user"`
	Geo                  any             `json:"geo"`
	Coordinates          any             `json:"coordinates"`
	Place                any             `json:"place"`
	Contributors         any             `json:"contributors"`
	RetweetedStatus      *TwitterStatus  `json:"retweeted_status"`
	RetweetCount         int             `json:"retweet_count"`
	FavoriteCount        int             `json:"favorite_count"`
	Entities             TwitterEntities `json:"entities"`
	Favorited            bool            `json:"favorited"`
	Retweeted            bool            `json:"retweeted"`
	PossiblySensitive    bool            `json:"possibly_sensitive"`
	Lang                 string          `json:"lang"`
}

type TwitterUser struct {
	ID          int64   `json:"id"`
	IDStr       string  `json:"id_str"`
	Name        string  `json:"name"`
	ScreenName  string  `json:"screen_name"`
	Location    string  `json:"location"`
	Description string  `json:"description"`
	URL         *string `json:"url"`
	Entities    struct {
		URL *struct {
			URLs []TwitterURL `json:"urls"`
		} `json:"url"`
		Description struct {
			URLs []TwitterURL `json:"urls"`
		} `json:"description"`
	} `json:"entities"`
	Protected                      bool    `json:"protected"`
	FollowersCount                 int     `json:"followers_count"`
	FriendsCount                   int     `json:"friends_count"`
	ListedCount                    int     `json:"listed_count"`
	CreatedAt                      string  `json:"created_at"`
	FavouritesCount                int     `json:"favourites_count"`
	UTCOffset                      *int    `json:"utc_offset"`
	TimeZone                       *string `json:"time_zone"`
	GeoEnabled                     bool    `json:"geo_enabled"`
	Verified                       bool    `json:"verified"`
	StatusesCount                  int     `json:"statuses_count"`
	Lang                           string  `json:"lang"`
	ContributorsEnabled            bool    `json:"contributors_enabled"`
	IsTranslator                   bool    `json:"is_translator"`
	IsTranslationEnabled           bool    `json:"is_translation_enabled"`
	ProfileBackgroundColor         string  `json:"profile_background_color"`
	ProfileBackgroundImageURL      string  `json:"profile_background_image_url"`
	ProfileBackgroundImageURLHTTPS string  `json:"profile_background_image_url_https"`
	ProfileBackgroundTile          bool    `json:"profile_background_tile"`
	ProfileImageURL                string  `json:"profile_image_url"`
	ProfileImageURLHTTPS           string  `json:"profile_image_url_https"`
	ProfileBannerURL               string  `json:"profile_banner_url"`
	ProfileLinkColor               string  `json:"profile_link_color"`
	ProfileSidebarBorderColor      string  `json:"profile_sidebar_border_color"`
	ProfileSidebarFillColor        string  `json:"profile_sidebar_fill_color"`
	ProfileTextColor               string  `json:"profile_text_color"`
	ProfileUseBackgroundImage      bool    `json:"profile_use_background_image"`
	DefaultProfile                 bool    `json:"default_profile"`
	DefaultProfileImage            bool    `json:"default_profile_image"`
	Following                      bool    `json:"following"`
	FollowRequestSent              bool    `json:"follow_request_sent"`
	Notifications                  bool    `json:"notifications"`
}

type TwitterURL struct {
	URL         string `json:"url"`
	ExpandedURL string `json:"expanded_url"`
	DisplayURL  string `json:"display_url"`
	Indices     []int  `json:"indices"`
}

type TwitterEntities struct {
	Hashtags []struct {
		Text    string `json:"text"`
		Indices []int  `json:"indices"`
	} `json:"hashtags"`
	Symbols      []any        `json:"symbols"`
	URLs         []TwitterURL `json:"urls"`
	UserMentions []struct {
		ScreenName string `json:"screen_name"`
		Name       string `json:"name"`
		ID         int64  `json:"id"`
		IDStr      string `json:"id_str"`
		Indices    []int  `json:"indices"`
	} `json:"user_mentions"`
	Media []struct {
		ID                int64                  `json:"id"`
		IDStr             string                 `json:"id_str"`
		Indices           []int                  `json:"indices"`
		MediaURL          string                 `json:"media_url"`
		MediaURLHTTPS     string                 `json:"media_url_https"`
		URL               string                 `json:"url"`
		DisplayURL        string                 `json:"display_url"`
		ExpandedURL       string                 `json:"expanded_url"`
		Type              string                 `json:"type"`
		Sizes             map[string]TwitterSize `json:"sizes"`
		SourceStatusID    int64                  `json:"source_status_id"`
		SourceStatusIDStr string                 `json:"source_status_id_str"`
	} `json:"media"`
}

type TwitterSize struct {
	W      int    `json:"w"`
	H      int    `json:"h"`
	Resize string `json:"resize"`
}

// citm_catalog.json

type CitmDoc struct {
	AreaNames                map[string]string    `json:"areaNames"`
	AudienceSubCategoryNames map[string]string    `json:"audienceSubCategoryNames"`
	BlockNames               map[string]string    `json:"blockNames"`
	Events                   map[string]CitmEvent `json:"events"`
	Performances             []struct {
		EventID int64   `json:"eventId"`
		ID      int64   `json:"id"`
		Logo    *string `json:"logo"`
		Name    *string `json:"name"`
		Prices  []struct {
			Amount                int   `json:"amount"`
			AudienceSubCategoryID int64 `json:"audienceSubCategoryId"`
			SeatCategoryID        int64 `json:"seatCategoryId"`
		} `json:"prices"`
		SeatCategories []struct {
			Areas []struct {
				AreaID   int64   `json:"areaId"`
				BlockIDs []int64 `json:"blockIds"`
			} `json:"areas"`
			SeatCategoryID int64 `json:"seatCategoryId"`
		} `json:"seatCategories"`
		SeatMapImage *string `json:"seatMapImage"`
		Start        int64   `json:"start"`
		VenueCode    string  `json:"venueCode"`
	} `json:"performances"`
	SeatCategoryNames map[string]string  `json:"seatCategoryNames"`
	SubTopicNames     map[string]string  `json:"subTopicNames"`
	SubjectNames      map[string]string  `json:"subjectNames"`
	TopicNames        map[string]string  `json:"topicNames"`
	TopicSubTopics    map[string][]int64 `json:"topicSubTopics"`
	VenueNames        map[string]string  `json:"venueNames"`
}

type CitmEvent struct {
	Description *string `json:"description"`
	ID          int64   `json:"id"`
	Logo        *string `json:"logo"`
	Name        string  `json:"name"`
	SubTopicIDs []int64 `json:"subTopicIds"`
	SubjectCode *string `json:"subjectCode"`
	Subtitle    *string `json:"subtitle"`
	TopicIDs    []int64 `json:"topicIds"`
}

// canada.json

type CanadaDoc struct {
	Type     string `json:"type"`
	Features []struct {
		Type       string `json:"type"`
		Properties struct {
			Name string `json:"name"`
		} `json:"properties"`
		Geometry struct {
			Type        string         `json:"type"`
			Coordinates [][][2]float64 `json:"coordinates"`
		} `json:"geometry"`
	} `json:"features"`
}

// The wide corpus' row-shaped files, typed as a Go user would type them for
// their data: a pointer where a value is sometimes null, float64 where
// numbers have fractions. Each file is a JSON array of rows, decoded into a
// []T.

// flights.json: 20,000 rows, every member always present.

type Flight struct {
	Date        string `json:"date"`
	Delay       int    `json:"delay"`
	Distance    int    `json:"distance"`
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
}

// movies.json: 3,201 rows, keys with spaces, many nulls. Nine titles are
// numbers (the film "1776" is written 1776) and one is null, so Title is any.

type Movie struct {
	Title                any      `json:"Title"`
	USGross              *int64   `json:"US Gross"`
	WorldwideGross       *int64   `json:"Worldwide Gross"`
	USDVDSales           *int64   `json:"US DVD Sales"`
	ProductionBudget     *int64   `json:"Production Budget"`
	ReleaseDate          string   `json:"Release Date"`
	MPAARating           *string  `json:"MPAA Rating"`
	RunningTimeMin       *int     `json:"Running Time min"`
	Distributor          *string  `json:"Distributor"`
	Source               *string  `json:"Source"`
	MajorGenre           *string  `json:"Major Genre"`
	CreativeType         *string  `json:"Creative Type"`
	Director             *string  `json:"Director"`
	RottenTomatoesRating *int     `json:"Rotten Tomatoes Rating"`
	IMDBRating           *float64 `json:"IMDB Rating"`
	IMDBVotes            *int     `json:"IMDB Votes"`
}

// airports.json: 7,184 rows, indented. A null iata is kept apart from an
// empty one; a null dst or tz just leaves the string empty.

type Airport struct {
	ID        int     `json:"id"`
	Name      string  `json:"name"`
	City      string  `json:"city"`
	Country   string  `json:"country"`
	IATA      *string `json:"iata"`
	ICAO      string  `json:"icao"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Altitude  int     `json:"altitude"`
	Timezone  float64 `json:"timezone"` // hours: some zones are +5.5
	DST       string  `json:"dst,omitempty"`
	TZ        string  `json:"tz,omitempty"`
	Type      string  `json:"type"`
	Source    string  `json:"source"`
}

// earthquakes.json: a GeoJSON FeatureCollection of 1,707 points.

type QuakeCollection struct {
	Type     string `json:"type"`
	Metadata struct {
		Generated int64  `json:"generated"`
		URL       string `json:"url"`
		Title     string `json:"title"`
		Status    int    `json:"status"`
		API       string `json:"api"`
		Count     int    `json:"count"`
	} `json:"metadata"`
	Features []QuakeFeature `json:"features"`
	BBox     []float64      `json:"bbox"`
}

type QuakeFeature struct {
	Type       string          `json:"type"`
	Properties QuakeProperties `json:"properties"`
	Geometry   struct {
		Type        string    `json:"type"`
		Coordinates []float64 `json:"coordinates"` // longitude, latitude, depth
	} `json:"geometry"`
	ID string `json:"id"`
}

type QuakeProperties struct {
	Mag     float64  `json:"mag"`
	Place   string   `json:"place"`
	Time    int64    `json:"time"` // milliseconds since 1970
	Updated int64    `json:"updated"`
	TZ      int      `json:"tz"`
	URL     string   `json:"url"`
	Detail  string   `json:"detail"`
	Felt    *int     `json:"felt"`
	CDI     *float64 `json:"cdi"`
	MMI     *float64 `json:"mmi"`
	Alert   *string  `json:"alert"`
	Status  string   `json:"status"`
	Tsunami int      `json:"tsunami"`
	Sig     int      `json:"sig"`
	Net     string   `json:"net"`
	Code    string   `json:"code"`
	IDs     string   `json:"ids"`
	Sources string   `json:"sources"`
	Types   string   `json:"types"`
	NST     *int     `json:"nst"`
	DMin    *float64 `json:"dmin"`
	RMS     *float64 `json:"rms"`
	Gap     *float64 `json:"gap"`
	MagType string   `json:"magType"`
	Type    string   `json:"type"`
	Title   string   `json:"title"`
}

// TypedTarget returns a new value of the hand-written type for a corpus
// file, or nil when there is none.
func TypedTarget(name string) any {
	switch name {
	case "twitter":
		return new(TwitterDoc)
	case "citm_catalog":
		return new(CitmDoc)
	case "canada":
		return new(CanadaDoc)
	case "flights":
		return new([]Flight)
	case "movies":
		return new([]Movie)
	case "airports":
		return new([]Airport)
	case "earthquakes":
		return new(QuakeCollection)
	}
	return nil
}
