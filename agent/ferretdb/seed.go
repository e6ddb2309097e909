// The seed of a deployment's MongoDB-protocol database, the same on FerretDB and on a host's own
// mongod: the contract's `docs` collection anew with random documents, then the facts the
// deployment records (`version <v>` and `setting <name> <value>` lines, read from the server).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// How long the server may take to answer its first ping (FerretDB at once; a mongod on a slow disk
// creates its journal first).
const readyWithin = 60 * time.Second

func letters(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rand.IntN(26))
	}
	return string(b)
}

// connect returns a client once the server answers a ping, waiting up to readyWithin.
func connect(ctx context.Context, raw string) (*mongo.Client, error) {
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(raw).SetServerSelectionTimeout(2*time.Second))
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(readyWithin)
	for {
		if err = client.Ping(ctx, nil); err == nil {
			return client, nil
		}
		if time.Now().After(deadline) {
			client.Disconnect(context.Background())
			return nil, fmt.Errorf("the database did not answer within %s: %w", readyWithin, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func seed(args []string) error {
	values, err := flags(args, "url", "docs")
	if err != nil {
		return err
	}
	count, err := strconv.Atoi(values["docs"])
	if err != nil || count < 0 {
		return fmt.Errorf("--docs must be a whole number, got %q", values["docs"])
	}
	return withDocs(values["url"], 60*time.Second, func(ctx context.Context, client *mongo.Client, docs *mongo.Collection) error {
		if err := docs.Drop(ctx); err != nil {
			return fmt.Errorf("cannot drop docs: %w", err)
		}
		rows := make([]any, count)
		for i := range rows {
			rows[i] = bson.D{{Key: "title", Value: letters(10)}, {Key: "body", Value: letters(100)}, {Key: "count", Value: 1 + rand.IntN(10000)}}
		}
		if count > 0 {
			if _, err := docs.InsertMany(ctx, rows); err != nil {
				return fmt.Errorf("cannot seed docs: %w", err)
			}
		}
		return printFacts(ctx, client.Database("admin"))
	})
}

// withDocs connects to the database at `address` (given the time to become ready, plus `work` for
// what `use` does), hands `use` the URL's database's docs collection, and disconnects after.
func withDocs(address string, work time.Duration, use func(ctx context.Context, client *mongo.Client, docs *mongo.Collection) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), readyWithin+work)
	defer cancel()
	client, err := connect(ctx, address)
	if err != nil {
		return err
	}
	defer client.Disconnect(context.Background())
	return use(ctx, client, client.Database(dbName(address)).Collection("docs"))
}

// dbName is the URL's database, `benchlab` when it names none.
func dbName(raw string) string {
	if parsed, err := url.Parse(raw); err == nil && strings.Trim(parsed.Path, "/") != "" {
		return strings.Trim(parsed.Path, "/")
	}
	return "benchlab"
}

// printFacts prints the server's version and what it says of its storage; a setting the server
// does not report is left out.
func printFacts(ctx context.Context, admin *mongo.Database) error {
	var build bson.M
	if err := admin.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&build); err != nil {
		return fmt.Errorf("cannot read buildInfo: %w", err)
	}
	fmt.Printf("version %v\n", build["version"])
	var status bson.M
	if admin.RunCommand(ctx, bson.D{{Key: "serverStatus", Value: 1}}).Decode(&status) == nil {
		if engine, ok := status["storageEngine"].(bson.M); ok {
			if name, ok := engine["name"]; ok {
				fmt.Printf("setting storageEngine %v\n", name)
			}
		}
		if tiger, ok := status["wiredTiger"].(bson.M); ok {
			if cache, ok := tiger["cache"].(bson.M); ok {
				if bytes, ok := cache["maximum bytes configured"]; ok {
					fmt.Printf("setting wiredTigerCacheBytes %v\n", bytes)
				}
			}
		}
	}
	fmt.Println("seeded")
	return nil
}

// showDocs prints how many documents `docs` holds, the newest (the last in the database's own
// order: the one stored last), then the first 100 in that order as the contract's JSON objects,
// one a line: what /docs should have answered. Not the greatest _id: an ObjectId orders by the
// second it was made, then by its maker's random bytes, so a document a template inserts in the
// second the seed ran may sort below the seed's.
func showDocs(args []string) error {
	values, err := flags(args, "url")
	if err != nil {
		return err
	}
	return withDocs(values["url"], 30*time.Second, func(ctx context.Context, _ *mongo.Client, docs *mongo.Collection) error {
		total, err := docs.CountDocuments(ctx, bson.D{})
		if err != nil {
			return err
		}
		fmt.Printf("count %d\n", total)
		newest, err := docLines(ctx, docs, options.Find().SetSkip(max(total-1, 0)).SetLimit(1))
		if err != nil {
			return err
		}
		for _, line := range newest {
			fmt.Println("newest " + line)
		}
		// Unsorted, as the templates' /docs reads them: the first 100 in the database's own order.
		first, err := docLines(ctx, docs, options.Find().SetLimit(100))
		for _, line := range first {
			fmt.Println(line)
		}
		return err
	})
}

// docLines finds documents of `docs` and gives each as a JSON line of the contract's fields.
func docLines(ctx context.Context, docs *mongo.Collection, find *options.FindOptions) ([]string, error) {
	cursor, err := docs.Find(ctx, bson.D{}, find)
	if err != nil {
		return nil, err
	}
	defer cursor.Close(ctx)
	var lines []string
	for cursor.Next(ctx) {
		var doc struct {
			ID    primitive.ObjectID `bson:"_id"`
			Title string             `bson:"title"`
			Body  string             `bson:"body"`
			Count int64              `bson:"count"`
		}
		if err = cursor.Decode(&doc); err != nil {
			return lines, err
		}
		line, _ := json.Marshal(map[string]any{"id": doc.ID.Hex(), "title": doc.Title, "body": doc.Body, "count": doc.Count})
		lines = append(lines, string(line))
	}
	return lines, cursor.Err()
}
